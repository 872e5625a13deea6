import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { DB } from "../env";

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
