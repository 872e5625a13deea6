import { reports } from "../../db/schema/social";
import type { DB } from "../../env";
import { runBatch } from "../../db/client";
import { refusing } from "../../db/refuse";
import { type ContentKind, TARGET_REFUSALS, targetCheck } from "../content/content";
import { block as blockPerson } from "../safety/safety.service";

/** What a reporter may add: a note in their own words, and a block of the content's author. */
export interface ReportExtras {
  note?: string;
  block?: boolean;
}

/**
 * One report per user per item: a repeat answers the same, and stores nothing new. A report is
 * never refused across a block: the blocked may still tell moderators about abuse. With `block`,
 * the content's author is blocked too (as Mastodon's and Bluesky's report forms offer).
 */
export async function report(
  db: DB,
  uid: number,
  kind: ContentKind,
  id: number,
  reason: number,
  extras: ReportExtras = {},
) {
  // The target check leads the insert's own batch (one round trip); blocks do not refuse a report.
  const [[target], added] = (await refusing(
    runBatch(db, [
      targetCheck(db, kind, id, uid, true, false),
      db
        .insert(reports)
        .values({ userId: uid, kind, targetId: id, reason, note: extras.note ?? "" })
        .onConflictDoNothing()
        .returning({ id: reports.id }),
    ]),
    TARGET_REFUSALS,
  )) as [{ ownerId: number }[], unknown[]];
  const blocking = !!extras.block && target.ownerId !== uid;
  if (blocking) await blockPerson(db, uid, target.ownerId, true);
  return { reported: true, created: added.length > 0, blocking };
}
