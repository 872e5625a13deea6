import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";

// Owned by the social feature: "Write your reply" and the replies list of a note.
export function Replies(_props: { note: NoteJson; viewer: UserJson | null; data: unknown }) {
  return <div id="replies" />;
}
