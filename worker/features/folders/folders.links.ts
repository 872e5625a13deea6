// Contract between notes and folders (the folders feature implements these; notes calls them).
import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "../../env";
import type { NoteFolderRef } from "../notes/notes.types";

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

/**
 * Statements that leave note `noteId` filed in exactly `folderIds`, for the notes service to put in
 * the same db.batch as the note write: folder_notes rows, folders.notenum / noted_at and
 * folder_labels exact. Throws a 4xx AppError when a folder is not the user's (nothing written).
 */
export async function folderSyncStatements(_db: DB, _s: FolderSync): Promise<BatchItem<"sqlite">[]> {
  return [];
}

/** Statements to run before a note is deleted, keeping its folders' counters exact. */
export async function folderUnfileStatements(_db: DB, _noteId: number): Promise<BatchItem<"sqlite">[]> {
  return [];
}

/** The folders each note is filed in, for hydrating note lists in one query. */
export async function foldersOfNotes(_db: DB, _noteIds: number[]): Promise<Map<number, NoteFolderRef[]>> {
  return new Map();
}
