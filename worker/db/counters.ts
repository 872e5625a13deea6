// O(1) counters: a counter moves by one in a statement of the write's own db.batch whose `where`
// holds exactly when the write changes a row (the row is not there yet for an insert, is there for a
// delete), or by a trigger on the rows it counts (likes, notifications). A batch is one transaction,
// so the guard and the write see the same state: a repeat or a racing duplicate moves nothing. No
// count(*) on a write path: the cost of a like must not grow with the likes already there
// (tests/api/counters.test.ts).
import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** `col + by`: for a statement guarded by a `where` that holds only when the write will change a row. */
export const plus = (col: SQLiteColumn, by: number): SQL<number> => sql`${col} + ${by}`;
