import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";

// Owned by the social feature: reply, renote (Renote / Undo renote, Quote), like (optimistic) buttons.
export function NoteActions({ note }: { note: NoteJson; viewer: UserJson | null }) {
  return (
    <div className="note-actions">
      <span>{note.repnum} replies</span> <span>{note.renum} renotes</span> <span>{note.likenum} likes</span>
    </div>
  );
}
