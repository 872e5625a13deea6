// One row inserted by INSERT … SELECT … WHERE: a write whose refusal is decided inside its own batch
// (decision 016) inserts only while its guard holds, and a refused one changes nothing.
import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DB } from "../env";

/**
 * INSERT … SELECT of one row of `table`, made only while `guard` holds (always without one). The
 * SELECT names every column in the table's order (getTableColumns), as an INSERT … SELECT must: the
 * value given (a value, or SQL the batch resolves), else the column's default (a function's: an id
 * made in the worker), else null (an id SQLite assigns). Columns SQLite computes are left out, as drizzle's own insert leaves them.
 */
export function insertWhere<T extends SQLiteTable>(
  db: DB,
  table: T,
  values: { [K in keyof T["$inferInsert"]]?: unknown },
  guard?: SQL,
) {
  const given = values as Record<string, unknown>;
  const row = Object.fromEntries(
    Object.entries(getTableColumns(table))
      .filter(([, col]) => !col.generated)
      .map(([key, col]) => {
        const v = given[key] !== undefined ? given[key] : (col.defaultFn?.() ?? col.default);
        const value = v === undefined || v === null ? sql`null` : is(v, SQL) ? v : sql.param(v, col);
        return [key, sql`${value}`.as(col.name)];
      }),
  );
  return db.insert(table as SQLiteTable).select(
    db
      .select(row)
      .from(sql`(select 1)`)
      .where(guard ?? sql`1`)
      .getSQL(),
  );
}
