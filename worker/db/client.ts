import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { and, eq, type SQL } from "drizzle-orm";
import type { DB } from "../env";
import { notFound } from "../lib/errors";
import type { folders } from "./schema/folders";
import type { notes } from "./schema/notes";

export function dbFor(d1: D1Database): DB {
  return drizzle(d1);
}

/**
 * db.batch for a list built at run time (drizzle's type wants a literal non-empty tuple): one
 * round trip, all or nothing. The results are the statements' own, in order, for the caller to name.
 */
export async function runBatch(db: DB, items: readonly BatchItem<"sqlite">[]): Promise<unknown[]> {
  if (!items.length) return [];
  return db.batch(items as unknown as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}

/**
 * db.batch of named statements (one round trip, all or nothing), answered by the same names: each
 * statement's result is what awaiting it alone would give (a select's rows, a RETURNING's rows).
 */
export async function runNamed<T extends Record<string, BatchItem<"sqlite">>>(
  db: DB,
  items: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const names = Object.keys(items) as (keyof T)[];
  const results = await runBatch(
    db,
    names.map((k) => items[k]),
  );
  return Object.fromEntries(names.map((k, i) => [k, results[i]])) as { [K in keyof T]: Awaited<T[K]> };
}

type Owned = typeof notes | typeof folders;

/**
 * The row `id` of `table` if `uid` owns it, else a 404 saying `what` was not found: ownership
 * lives in the query, so someone else's row is simply not found. `also` narrows further (a note
 * that is not a renote).
 */
export async function ownRow<T extends Owned>(
  db: DB,
  table: T,
  id: number,
  uid: number,
  what: string,
  also?: SQL,
): Promise<T["$inferSelect"]> {
  const [row] = await db
    .select()
    .from(table as Owned)
    .where(and(eq(table.id, id), eq(table.userId, uid), also))
    .limit(1);
  if (!row) throw notFound(`${what} not found`);
  return row as T["$inferSelect"];
}
