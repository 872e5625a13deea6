// Contract between notes and folders: the notes service puts these statements in the same db.batch
// as the note write, so filing, notenum, noted_at and per-folder x-label counts change together.
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { plus } from "../../db/counters";
import type { BatchItem } from "drizzle-orm/batch";
import { folderLabels, folderNotes, folders } from "../../db/schema/folders";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";

export interface FolderSync {
  userId: number;
  noteId: number;
  /** The note's label now, and before the edit (null when the note is new). */
  label: string;
  oldLabel: string | null;
  createdAt: number;
  /** The folder ids the note should be filed in after this write (at most 20). */
  folderIds: number[];
}

// Counters move by the filings the batch itself removes and adds, each statement guarded by the
// folder_notes rows as they stand at that point of the batch: exact under repeats and races, and
// O(folders the note is in), never O(notes in a folder).
const filing = (noteId: number | SQL, folder: SQL, label?: SQL) =>
  sql`exists(select 1 from folder_notes fn where fn.folder_id = ${folder} and fn.note_id = ${noteId}${label ? sql` and fn.label = ${label}` : sql``})`;

/** Before the note's filings are deleted: each folder it is in loses one note and one x-label. */
function unfiled(db: DB, noteId: number, ids: number[]): BatchItem<"sqlite">[] {
  return [
    db
      .update(folders)
      .set({ notenum: plus(folders.notenum, -1) })
      .where(and(inArray(folders.id, ids), filing(noteId, sql`${folders.id}`))),
    db
      .update(folderLabels)
      .set({ n: plus(folderLabels.n, -1) })
      .where(
        and(
          inArray(folderLabels.folderId, ids),
          filing(noteId, sql`${folderLabels.folderId}`, sql`${folderLabels.label}`),
        ),
      ),
    // Only the filings counted out above: one a racing edit made since `ids` was read stays, counted.
    db.delete(folderNotes).where(and(eq(folderNotes.noteId, noteId), inArray(folderNotes.folderId, ids))),
  ];
}

/** After the note's filings are inserted: each folder gains one note and one x-label. */
function filed(db: DB, noteId: number | SQL, ids: number[]): BatchItem<"sqlite">[] {
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
function tidy(db: DB, ids: number[]): BatchItem<"sqlite">[] {
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
 * What syncing a note's folders reads first, for the caller's own batch of reads: which of
 * `folderIds` are the user's, and the folders the note is filed in now.
 */
export const folderSyncReads = (db: DB, userId: number, noteId: number, folderIds: number[]) =>
  [
    db
      .select({ id: folders.id })
      .from(folders)
      .where(and(eq(folders.userId, userId), inArray(folders.id, folderIds.length ? [...new Set(folderIds)] : [0]))),
    db.select({ id: folderNotes.folderId }).from(folderNotes).where(eq(folderNotes.noteId, noteId)),
  ] as const;

/**
 * Statements that leave note `noteId` filed in exactly `folderIds`, from what folderSyncReads found.
 * Throws a 422 (nothing written) when a folder is not the user's: notes go only into their author's
 * own x-folders.
 */
export function folderSyncFrom(
  db: DB,
  s: FolderSync,
  owned: { id: number }[],
  before: { id: number }[],
): BatchItem<"sqlite">[] {
  const ids = [...new Set(s.folderIds)];
  if (owned.length !== ids.length) {
    const message = "You can only file notes into your own x-folders.";
    throw new AppError(422, "invalid_input", message, { folders: message });
  }
  const touched = [...new Set([...ids, ...before.map((b) => b.id)])];
  if (!touched.length) return [];
  return [
    ...unfiled(db, s.noteId, touched),
    ...(ids.length
      ? [
          db
            .insert(folderNotes)
            .values(ids.map((folderId) => ({ folderId, noteId: s.noteId, label: s.label, noteCreatedAt: s.createdAt })))
            .onConflictDoNothing(),
        ]
      : []),
    ...filed(db, s.noteId, ids),
    ...tidy(db, touched),
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
): BatchItem<"sqlite">[] {
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

/** folderSyncReads then folderSyncFrom, for a write that has no other reads to send with them. */
export async function folderSyncStatements(db: DB, s: FolderSync): Promise<BatchItem<"sqlite">[]> {
  const [owned, before] = await db.batch(folderSyncReads(db, s.userId, s.noteId, s.folderIds));
  return folderSyncFrom(db, s, owned, before);
}

/** Statements to run before a note is deleted, keeping its folders' counters exact. */
export async function folderUnfileStatements(db: DB, noteId: number): Promise<BatchItem<"sqlite">[]> {
  const rows = await db.select({ id: folderNotes.folderId }).from(folderNotes).where(eq(folderNotes.noteId, noteId));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  return [...unfiled(db, noteId, ids), ...tidy(db, ids)];
}
