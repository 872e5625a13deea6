// The counter audit of worker/db/recount.js run on the test D1: the same SQL `npm run recount` uses.
import { env } from "cloudflare:test";
import { CHECK_SQL, recount, wrongIn } from "../worker/db/recount.js";

const query = async (sql: string) => (await env.DB.prepare(sql).first<Record<string, unknown>>()) ?? {};
const exec = (sqls: string[]) => env.DB.batch(sqls.map((s) => env.DB.prepare(s)));

/** Every counter that disagrees with the rows it counts, as "table.column: rows wrong"; [] when exact. */
export async function wrongCounters(): Promise<string[]> {
  return wrongIn(await query(CHECK_SQL)).map((w) => `${w.counter.name}: ${w.n}`);
}

/** Repairs every wrong counter; answers what it fixed (what `npm run recount` prints). */
export const repairCounters = () => recount(query, exec);
