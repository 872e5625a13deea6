import { eq, sql } from "drizzle-orm";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies, reports } from "../../db/schema/social";
import type { DB } from "../../env";
import { runBatch } from "../../db/client";
import { type ContentKind, type TargetFacts, targetAllows, targetFacts, targetRefusal } from "../content/content";
import { block as blockPerson } from "../safety/safety.service";
import type { OutEvent } from "../federation/context";

/** What a reporter may add: a note in their own words, and a block of the content's author. */
export interface ReportExtras {
  note?: string;
  block?: boolean;
}

/** The author of a piece of content (0 when it is gone). */
async function ownerOf(db: DB, kind: ContentKind, id: number): Promise<number> {
  const t = kind === "note" ? notes : kind === "reply" ? replies : folders;
  const [row] = await db
    .select({ uid: t.userId })
    .from(t as typeof notes)
    .where(eq(t.id, id))
    .limit(1);
  return row?.uid ?? 0;
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
  // The target's facts lead the insert's own batch (one round trip); the insert holds the same
  // condition in its own statement (columns in the table's order), so a refused report stores nothing.
  const [[facts], added] = (await runBatch(db, [
    targetFacts(db, kind, id, uid, true),
    db
      .insert(reports)
      .select(
        sql`select null, ${uid}, ${kind}, ${id}, ${reason}, ${extras.note ?? ""}, ${Date.now()}, null where ${targetAllows(db, kind, id, uid, true, false)}`,
      )
      .onConflictDoNothing()
      .returning({ id: reports.id }),
  ])) as [TargetFacts[], unknown[]];
  const refused = targetRefusal(facts, false);
  if (refused) throw refused;
  // Blocking the author is a second step, only when asked for (one's own content never).
  const owner = extras.block ? await ownerOf(db, kind, id) : 0;
  const blocking = owner !== 0 && owner !== uid;
  if (blocking) await blockPerson(db, uid, owner, true);
  return { reported: true, created: added.length > 0, blocking };
}

/**
 * The Flag a report asks to forward to the reported posts' server (the web's "Forward to <host>",
 * a Mastodon app's `forward`), or null: only posts, and only those this report newly stored, so a
 * repeat sends nothing twice. The consumer sends it only when their author is on another server.
 */
export function forwardOf(
  posts: { kind: ContentKind; id: number; created: boolean }[],
  reason: number,
  note: string,
): OutEvent | null {
  const sent = posts.flatMap((p) =>
    p.created && (p.kind === "note" || p.kind === "reply") ? [{ kind: p.kind, id: p.id }] : [],
  );
  if (!sent.length) return null;
  const [first, ...more] = sent;
  return { notex: "flag", op: "create", ...first, reason, note, ...(more.length ? { more } : {}) };
}
