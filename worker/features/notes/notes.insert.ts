// A note's insert inside the write's own batch, and how the statements after it name the new row.
// D1 has no interactive transaction, but a batch is one: its statements run in order on the
// database's single writer, with nothing else in between. So the author's highest note id, read
// after the insert in the same batch, is the note just inserted (ids are AUTOINCREMENT: a new one is
// above every id ever used), and the write needs no trip to learn it first.
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "../../env";
import { notes } from "../../db/schema/notes";

type Value = SQL | string | number | null;

/** A new note's own values; every other column takes the table's default. */
export interface NewNote {
  userId: number;
  kind: number;
  label?: string;
  content?: string;
  txt?: string;
  imgs?: string;
  alts?: string;
  video?: string;
  /** The original a renote or quote shares (SQL: resolved inside the batch). */
  renoteId?: SQL | number | null;
  createdAt: number;
  notedAt: number;
}

/** Columns the insert leaves to SQLite (the id) or to their default when a write does not name them. */
const DEFAULTS: Record<keyof typeof notes.$inferSelect, Value> = {
  id: null,
  userId: null,
  kind: 0,
  label: "",
  content: "",
  txt: "",
  imgs: "",
  alts: "[]",
  video: "",
  renoteId: null,
  renum: 0,
  repnum: 0,
  likenum: 0,
  createdAt: null,
  notedAt: null,
  updatedAt: null,
  hiddenAt: null,
};

/**
 * INSERT … SELECT of one note, made only when `guard` holds (the write's own refusal condition,
 * read by the batch's first statement too); without a guard it always inserts. The SELECT names
 * every column in the table's order (getTableColumns), as an INSERT … SELECT must.
 */
export function insertNote(db: DB, n: NewNote, guard?: SQL) {
  const given: Record<string, Value | undefined> = { ...n };
  const row = Object.fromEntries(
    Object.entries(getTableColumns(notes)).map(([key, col]) => {
      const v = given[key] !== undefined ? given[key] : DEFAULTS[key as keyof typeof DEFAULTS];
      return [key, sql`${v}`.as(col.name)];
    }),
  );
  return db.insert(notes).select(
    db
      .select(row)
      .from(sql`(select 1)`)
      .where(guard ?? sql`1`)
      .getSQL(),
  );
}

/**
 * The note `insertNote` just put in for `uid`, for the statements after it in the same batch; null
 * when `guard` (the insert's own) refused it, so those statements then match nothing.
 */
export const newNoteOf = (uid: number, guard?: SQL): SQL<number> =>
  sql<number>`(select max(n.id) from notes n where n.user_id = ${uid}${guard ? sql` and ${guard}` : sql``})`;

/**
 * A write built and not yet sent: its statements for one batch, the SQL that names what it made
 * inside that batch (for statements a caller adds after them: a status read back), and how its
 * answer (or refusal) comes out of the batch's results.
 */
export interface PreparedWrite<T> {
  statements: BatchItem<"sqlite">[];
  id: SQL<number>;
  answer: (results: unknown[]) => T;
}
