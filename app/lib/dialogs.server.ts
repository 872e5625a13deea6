import { allOf, known, mapRead, type Read } from "../../worker/db/reads";
import type { DB } from "../../worker/env";
import { marksRead } from "../../worker/features/interactions/interactions.service";
import { folderRead, foldersRead } from "../../worker/features/folders/folders.service";
import { noteRead } from "../../worker/features/notes/read.service";
import type { DialogData } from "~/components/lazyDialogs";

const positive = (n: number) => Number.isSafeInteger(n) && n > 0;

/**
 * What a dialog opened by the page's address is about (the note being edited or quoted, the folder
 * being edited, the composer's folders, the menu's marks), as a read that rides in the page's
 * batch (page.server.ts readPage).
 */
export function dialogRead(db: DB, uid: number, url: URL): Read<DialogData> {
  const dialog = url.searchParams.get("dialog");
  if (dialog === "folder") {
    const edit = Number(url.searchParams.get("edit"));
    if (!positive(edit)) return known({});
    // Only one's own folder opens filled: anyone else's reads as none.
    return mapRead(allOf({ folder: folderRead(db, { id: edit }, uid) }), ({ folder }) => ({
      editFolder: folder.ok && folder.data.user?.me ? folder.data : null,
    }));
  }
  const id = Number(
    dialog === "note"
      ? url.searchParams.get("edit")
      : dialog === "quote" || dialog === "note-menu"
        ? url.searchParams.get("id")
        : 0,
  );
  const valid = positive(id);
  // Asked to edit a note: only one of your own opens the composer, filled; any other id (someone
  // else's, a deleted one, not a number) must not turn into a filled form or a new note.
  const editing = dialog === "note" && url.searchParams.has("edit");
  const folder = Number(url.searchParams.get("folder")) || undefined;
  const reads = allOf({
    note: valid ? noteRead(db, id, uid) : known(null),
    folders: dialog === "note" ? foldersRead(db, { uid, sort: "type", page: 1 }, uid) : known(null),
    // The menu's dialog shows each private mark (Save or Unsave) as it stands.
    marks: dialog === "note-menu" && valid ? marksRead(db, uid, "note", id) : known(null),
  });
  return mapRead(reads, ({ note, folders, marks }): DialogData => {
    const found = note.ok ? note.data : null;
    if (editing && !found?.user.me) return { editRefused: true };
    return {
      note: found,
      folder,
      folders: folders.ok ? (folders.data?.folders ?? []) : [],
      marks: marks.ok && marks.data ? marks.data : undefined,
    };
  });
}
