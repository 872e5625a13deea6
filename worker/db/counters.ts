// O(1) counters: a counter moves by the rows its write really changed, in the write's own db.batch.
// D1 runs a batch's statements one after another in one transaction on one connection, so SQLite's
// changes() inside a statement still reports the statement before it (it is set when a statement
// completes). `INSERT … ON CONFLICT DO NOTHING` then `SET n = n + changes()` adds 0 for a repeat,
// and a racing duplicate can never count twice. No count(*) on a write path: the cost of a like
// must not grow with the likes already there (tests/api/counters.test.ts).
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `col + changes()`: for the statement right after an insert. */
export const plusChanges = (col: SQLiteColumn): SQL<number> => sql`${col} + changes()`;

/** `col - changes()`: for the statement right after a delete. */
export const minusChanges = (col: SQLiteColumn): SQL<number> => sql`${col} - changes()`;

/** `col + by`: for a statement guarded by a `where` that holds only when the write will change a row. */
export const plus = (col: SQLiteColumn, by: number): SQL<number> => sql`${col} + ${by}`;
