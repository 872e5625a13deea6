// Contract between notes and folders: the notes service puts these statements in the same db.batch
// as the note write, so filing, notenum, noted_at and per-folder x-label counts change together.
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
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

/** Recounts notenum, noted_at and the x-label counts of the given folders from folder_notes. */
export function recountFolders(db: DB, ids: number[]): BatchItem<"sqlite">[] {
  if (!ids.length) return [];
  return [
    db
      .update(folders)
      .set({
        notenum: sql`(select count(*) from folder_notes fn where fn.folder_id = ${folders.id})`,
        notedAt: sql`(select coalesce(max(note_created_at), 0) from folder_notes fn where fn.folder_id = ${folders.id})`,
      })
      .where(inArray(folders.id, ids)),
    db.delete(folderLabels).where(inArray(folderLabels.folderId, ids)),
    db.insert(folderLabels).select(
      db
        .select({ folderId: folderNotes.folderId, label: folderNotes.label, n: sql<number>`count(*)`.as("n") })
        .from(folderNotes)
        .where(and(inArray(folderNotes.folderId, ids), sql`${folderNotes.label} != ''`))
        .groupBy(folderNotes.folderId, folderNotes.label),
    ),
  ];
}

/**
 * Statements that leave note `noteId` filed in exactly `folderIds`. Throws a 422 (nothing written)
 * when a folder is not the user's: notes go only into their author's own x-folders.
 */
export async function folderSyncStatements(db: DB, s: FolderSync): Promise<BatchItem<"sqlite">[]> {
  const ids = [...new Set(s.folderIds)];
  const [owned, before] = await db.batch([
    db
      .select({ id: folders.id })
      .from(folders)
      .where(and(eq(folders.userId, s.userId), inArray(folders.id, ids.length ? ids : [0]))),
    db.select({ id: folderNotes.folderId }).from(folderNotes).where(eq(folderNotes.noteId, s.noteId)),
  ]);
  if (owned.length !== ids.length) {
    const message = "You can only file notes into your own x-folders.";
    throw new AppError(422, "invalid_input", message, { folders: message });
  }
  const touched = [...new Set([...ids, ...before.map((b) => b.id)])];
  if (!touched.length) return [];
  return [
    db
      .delete(folderNotes)
      .where(and(eq(folderNotes.noteId, s.noteId), ids.length ? notInArray(folderNotes.folderId, ids) : undefined)),
    ...(ids.length
      ? [
          db
            .insert(folderNotes)
            .values(ids.map((folderId) => ({ folderId, noteId: s.noteId, label: s.label, noteCreatedAt: s.createdAt })))
            .onConflictDoUpdate({ target: [folderNotes.folderId, folderNotes.noteId], set: { label: s.label } }),
        ]
      : []),
    ...recountFolders(db, touched),
  ];
}

/** Statements to run before a note is deleted, keeping its folders' counters exact. */
export async function folderUnfileStatements(db: DB, noteId: number): Promise<BatchItem<"sqlite">[]> {
  const rows = await db.select({ id: folderNotes.folderId }).from(folderNotes).where(eq(folderNotes.noteId, noteId));
  if (!rows.length) return [];
  return [
    db.delete(folderNotes).where(eq(folderNotes.noteId, noteId)),
    ...recountFolders(
      db,
      rows.map((r) => r.id),
    ),
  ];
}
