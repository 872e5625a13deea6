import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";

// Owned by the social feature: Save (bookmark) and Report items of the note menu on others' notes.
export function NoteMenuExtra(_props: { note: NoteJson; viewer: UserJson | null }) {
  return null;
}
