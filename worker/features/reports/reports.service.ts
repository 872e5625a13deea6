import { reports } from "../../db/schema/social";
import type { DB } from "../../env";
import { type ContentKind, findTarget } from "../content/content";

/**
 * One report per user per item: a repeat answers the same, and stores nothing new. A report is
 * never refused across a block: the blocked may still tell moderators about abuse.
 */
export async function report(db: DB, uid: number, kind: ContentKind, id: number, reason: number) {
  await findTarget(db, kind, id, uid);
  await db.insert(reports).values({ userId: uid, kind, targetId: id, reason }).onConflictDoNothing();
  return { reported: true };
}
