import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import type { DB } from "../env";

export function dbFor(d1: D1Database): DB {
  return drizzle(d1);
}

/** db.batch for a list built at run time (drizzle's type wants a literal non-empty tuple). */
export function runBatch(db: DB, items: BatchItem<"sqlite">[]) {
  if (!items.length) return Promise.resolve([]);
  return db.batch(items as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
}
