import { reports } from "../../db/schema/social";
import type { DB } from "../../env";
import { runBatch } from "../../db/client";
import { refusing } from "../../db/refuse";
import { type ContentKind, TARGET_REFUSALS, targetCheck } from "../content/content";

/**
 * One report per user per item: a repeat answers the same, and stores nothing new. A report is
 * never refused across a block: the blocked may still tell moderators about abuse.
 */
export async function report(db: DB, uid: number, kind: ContentKind, id: number, reason: number) {
  // The target check leads the insert's own batch (one round trip); blocks do not refuse a report.
  const [, added] = await refusing(
    runBatch(db, [
      targetCheck(db, kind, id, uid, true, false),
      db
        .insert(reports)
        .values({ userId: uid, kind, targetId: id, reason })
        .onConflictDoNothing()
        .returning({ id: reports.id }),
    ]),
    TARGET_REFUSALS,
  );
  return { reported: true, created: (added as unknown[]).length > 0 };
}
