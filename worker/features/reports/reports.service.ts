import { sql } from "drizzle-orm";
import { reports } from "../../db/schema/social";
import type { DB } from "../../env";
import { runBatch } from "../../db/client";
import { type ContentKind, type TargetFacts, targetAllows, targetFacts, targetRefusal } from "../content/content";

/**
 * One report per user per item: a repeat answers the same, and stores nothing new. A report is
 * never refused across a block: the blocked may still tell moderators about abuse.
 */
export async function report(db: DB, uid: number, kind: ContentKind, id: number, reason: number) {
  // The target's facts lead the insert's own batch (one round trip); the insert holds the same
  // condition in its own statement (columns in the table's order), so a refused report stores nothing.
  const [[facts], added] = (await runBatch(db, [
    targetFacts(db, kind, id, uid, true),
    db
      .insert(reports)
      .select(
        sql`select null, ${uid}, ${kind}, ${id}, ${reason}, ${Date.now()}, null where ${targetAllows(db, kind, id, uid, true, false)}`,
      )
      .onConflictDoNothing()
      .returning({ id: reports.id }),
  ])) as [TargetFacts[], unknown[]];
  const refused = targetRefusal(facts, false);
  if (refused) throw refused;
  return { reported: true, created: added.length > 0 };
}
