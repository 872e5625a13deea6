// A note's insert inside the write's own batch, and how the statements after it name the new row.
// The id is made in the worker before the batch (lib/ids.ts), so the statements after the insert
// name it directly; they read it through the row, so that a refused insert leaves them nothing.
import { type SQL, sql } from "drizzle-orm";
import type { DB } from "../../env";
import { insertWhere } from "../../db/insert";
import type { Read } from "../../db/reads";
import { notes } from "../../db/schema/notes";

/** A new note's own values; every other column takes the table's default. */
export interface NewNote {
  /** Made by newId("note") before the batch. */
  id: number;
  userId: number;
  kind: number;
  label?: string;
  content?: string;
  txt?: string;
  imgs?: string;
  alts?: string;
  /** notes.dims: the images' sizes and blurhashes (image-dims.ts). */
  dims?: string;
  video?: string;
  /** The original a renote or quote shares (SQL: resolved inside the batch). */
  renoteId?: SQL | number | null;
  createdAt: number;
  notedAt: number;
}

/**
 * The note's INSERT … SELECT, made only when `guard` holds (the write's own refusal condition,
 * read by the batch's first statement too); without a guard it always inserts.
 */
export const insertNote = (db: DB, n: NewNote, guard?: SQL) => insertWhere(db, notes, n, guard);

/**
 * The note `insertNote` put in with the id `id`, for the statements after it in the same batch; null
 * when the insert's guard refused it, so those statements then match nothing.
 */
export const madeNote = (id: number): SQL<number> => sql<number>`(select n.id from notes n where n.id = ${id})`;

/**
 * A write built and not yet sent: a Read (its statements for one batch, and its answer or refusal
 * from their rows), and the SQL that names what it made inside that batch (for reads a door adds
 * after it: a status read back).
 */
export type PreparedWrite<T> = Read<T> & { id: SQL<number> };
