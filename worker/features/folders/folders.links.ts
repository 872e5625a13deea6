// Contract between notes and folders: the notes service puts these statements in the same db.batch
// as the note write, so filing, notenum, noted_at and per-folder x-label counts change together.
import { and, eq, inArray, notInArray, type SQL, sql } from "drizzle-orm";
import { plus } from "../../db/counters";
import type { Statement } from "../../db/plan";
import { folderLabels, folderNotes, folders } from "../../db/schema/folders";
import type { DB } from "../../env";

// Counters move by the filings the batch itself removes and adds, each statement guarded by the
// folder_notes rows as they stand at that point of the batch: exact under repeats and races, and
// O(folders the note is in), never O(notes in a folder).
const filing = (noteId: number | SQL, folder: SQL, label?: SQL) =>
  sql`exists(select 1 from folder_notes fn where fn.folder_id = ${folder} and fn.note_id = ${noteId}${label ? sql` and fn.label = ${label}` : sql``})`;

/** After the note's filings are inserted: each folder gains one note and one x-label. */
function filed(db: DB, noteId: number | SQL, ids: number[]): Statement[] {
  if (!ids.length) return [];
  return [
    db
      .update(folders)
      .set({ notenum: plus(folders.notenum, 1) })
      .where(and(inArray(folders.id, ids), filing(noteId, sql`${folders.id}`))),
    db
      .insert(folderLabels)
      .select(
        db
          .select({ folderId: folderNotes.folderId, label: folderNotes.label, n: sql<number>`0`.as("n") })
          .from(folderNotes)
          .where(and(eq(folderNotes.noteId, noteId), sql`${folderNotes.label} != ''`)),
      )
      .onConflictDoNothing(),
    db
      .update(folderLabels)
      .set({ n: plus(folderLabels.n, 1) })
      .where(
        and(
          inArray(folderLabels.folderId, ids),
          filing(noteId, sql`${folderLabels.folderId}`, sql`${folderLabels.label}`),
        ),
      ),
  ];
}

/** noted_at (the newest filed note: one step down the folder's time index) and empty x-labels. */
function tidy(db: DB, ids: number[]): Statement[] {
  return [
    db
      .update(folders)
      .set({
        notedAt: sql`(select coalesce(max(note_created_at), 0) from folder_notes fn where fn.folder_id = ${folders.id})`,
      })
      .where(inArray(folders.id, ids)),
    db.delete(folderLabels).where(and(inArray(folderLabels.folderId, ids), eq(folderLabels.n, 0))),
  ];
}

/**
 * Statements that leave note `noteId` (the author's, edited in the same batch) filed in exactly
 * `folderIds`, each under the edit's own guard `ok` (which includes foldersOwned): nothing is read
 * first. A note's created_at never changes, so a folder it joins takes it as its newest when it is
 * newer, one it leaves recounts its newest from the rest; its x-labels leave every folder it is in
 * and come back with its label now, so a changed label moves too. O(folders the note is in).
 */
export function folderResyncStatements(
  db: DB,
  s: { userId: number; noteId: number; label: string; folderIds: number[] },
  ok: SQL,
): Statement[] {
  const ids = [...new Set(s.folderIds)];
  const filedNow = sql`(select fn.folder_id from folder_notes fn where fn.note_id = ${s.noteId})`;
  const pairsNow = sql`(select fn.folder_id, fn.label from folder_notes fn where fn.note_id = ${s.noteId})`;
  const labelPair = sql`(${folderLabels.folderId}, ${folderLabels.label})`;
  return [
    // Folders it joins: one note more, and maybe a newer newest.
    db
      .update(folders)
      .set({
        notenum: plus(folders.notenum, 1),
        notedAt: sql`max(${folders.notedAt}, (select created_at from notes where id = ${s.noteId}))`,
      })
      .where(and(eq(folders.userId, s.userId), inArray(folders.id, ids), sql`${folders.id} not in ${filedNow}`, ok)),
    // Folders it leaves: one note fewer, and their newest among the notes that stay.
    db
      .update(folders)
      .set({
        notenum: plus(folders.notenum, -1),
        notedAt: sql`(select coalesce(max(fn.note_created_at), 0) from folder_notes fn where fn.folder_id = ${folders.id} and fn.note_id != ${s.noteId})`,
      })
      .where(and(sql`${folders.id} in ${filedNow}`, notInArray(folders.id, ids), ok)),
    db
      .update(folderLabels)
      .set({ n: plus(folderLabels.n, -1) })
      .where(and(sql`${labelPair} in ${pairsNow}`, ok)),
    db.delete(folderLabels).where(and(eq(folderLabels.n, 0), sql`${folderLabels.folderId} in ${filedNow}`)),
    db.delete(folderNotes).where(and(eq(folderNotes.noteId, s.noteId), ok)),
    db.insert(folderNotes).select(
      db
        .select({
          folderId: folders.id,
          noteId: sql<number>`${s.noteId}`.as("note_id"),
          label: sql<string>`${s.label}`.as("label"),
          noteCreatedAt: sql<number>`(select created_at from notes where id = ${s.noteId})`.as("note_created_at"),
        })
        .from(folders)
        .where(and(eq(folders.userId, s.userId), inArray(folders.id, ids), ok)),
    ),
    db
      .insert(folderLabels)
      .select(
        db
          .select({ folderId: folderNotes.folderId, label: folderNotes.label, n: sql<number>`0`.as("n") })
          .from(folderNotes)
          .where(and(eq(folderNotes.noteId, s.noteId), sql`${folderNotes.label} != ''`, ok)),
      )
      .onConflictDoNothing(),
    db
      .update(folderLabels)
      .set({ n: plus(folderLabels.n, 1) })
      .where(and(sql`${labelPair} in ${pairsNow}`, ok)),
  ];
}

/** Holds when every one of `folderIds` is `userId`'s own: notes go only into their author's x-folders. */
export const foldersOwned = (userId: number, folderIds: number[]) => {
  const ids = [...new Set(folderIds)];
  return sql`(select count(*) from folders f where f.user_id = ${userId} and f.id in ${ids}) = ${ids.length}`;
};

/**
 * Statements that file a note just inserted in the same batch (`noteId`: SQL naming it, null when
 * its insert was refused) in `folderIds`: it is in no folder yet, so there is nothing to read or
 * unfile first. Only the author's own folders take it (foldersOwned is the insert's guard).
 */
export function folderFileNew(
  db: DB,
  s: { userId: number; noteId: SQL; label: string; createdAt: number; folderIds: number[] },
): Statement[] {
  const ids = [...new Set(s.folderIds)];
  if (!ids.length) return [];
  return [
    db
      .insert(folderNotes)
      .select(
        db
          .select({
            folderId: folders.id,
            noteId: sql<number>`${s.noteId}`.as("note_id"),
            label: sql<string>`${s.label}`.as("label"),
            noteCreatedAt: sql<number>`${s.createdAt}`.as("note_created_at"),
          })
          .from(folders)
          .where(and(eq(folders.userId, s.userId), inArray(folders.id, ids), sql`${s.noteId} is not null`)),
      )
      .onConflictDoNothing(),
    ...filed(db, s.noteId, ids),
    ...tidy(db, ids),
  ];
}
