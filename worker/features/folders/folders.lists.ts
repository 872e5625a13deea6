// A folder's notes: the list shapes of a folder (by id, or by its page's address) and the read of
// one page of them, for the /v1 routes, the folder page and the folder's feed.
import { and, eq, sql } from "drizzle-orm";
import { folderNotes } from "../../db/schema/folders";
import type { Read } from "../../db/reads";
import type { DB } from "../../env";
import { type ListShape, listRead } from "../notes/read.service";
import type { NoteList } from "../notes/notes.types";
import { idNamed } from "../users/users.service";

/**
 * The folder at a page's address (its owner's name, any case, and its slug) as SQL, read inside the
 * list's own statement (folders_user_slug_uq): the folder page asks for the folder and its notes
 * side by side, in one round trip.
 */
const folderAt = sql`(select f.id from folders f where f.user_id = ${idNamed(sql.placeholder("username"))} and f.slug = ${sql.placeholder("slug")})`;

// A folder page reads along folder_notes (folder, label, time): it never sorts more than it shows.
const folderDriver = (label: boolean, byAddress: boolean): ListShape["driver"] => ({
  table: folderNotes,
  at: folderNotes.noteCreatedAt,
  id: folderNotes.noteId,
  where: and(
    eq(folderNotes.folderId, byAddress ? folderAt : sql.placeholder("folder")),
    label ? eq(folderNotes.label, sql.placeholder("label")) : undefined,
  ),
});
// A folder holds one author's notes, opened on purpose: a mute does not empty it (a block does).
const folderList = (name: string, label: boolean, byAddress: boolean): ListShape => ({
  name,
  driver: folderDriver(label, byAddress),
  mute: false,
});
/** A folder's notes by its address (`username`, `slug`): its page's list, and its feed's. */
export const FOLDER_AT = folderList("folderAt", false, true);
/** A folder's lists by id, and by address: [all, one x-label]. */
export const BY_ID = [folderList("folder", false, false), folderList("folderLabel", true, false)] as const;
export const BY_ADDRESS = [FOLDER_AT, folderList("folderAtLabel", true, true)] as const;

export type FolderLists = readonly [ListShape, ListShape];

/** One page of a folder's notes (or of one x-label in it), the folder named by `values`. */
export function folderNotesRead(
  db: DB,
  [all, labelled]: FolderLists,
  values: Record<string, unknown>,
  rawLabel: string | undefined,
  q: { page: number; cursor?: string },
  viewerId: number | null,
): Read<NoteList> {
  const label = rawLabel?.trim().toLowerCase();
  return listRead(db, label ? labelled : all, { ...values, label }, q, viewerId);
}
