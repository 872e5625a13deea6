import { eq } from "drizzle-orm";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies, reports } from "../../db/schema/social";
import type { DB } from "../../env";
import { runNamed } from "../../db/client";
import { type ContentKind, type TargetFacts, targetAllows, targetFacts, targetRefusal } from "../content/content";
import { isRemote } from "../users/locality";
import type { OutEvent } from "../federation/context";
import { insertWhere } from "../../db/insert";

/** What a reporter may add: a note in their own words for the moderators. */
export interface ReportExtras {
  note?: string;
}

/** The author of a piece of content, and whether they are on another server (none when it is gone). */
function authorOf(db: DB, kind: ContentKind, id: number) {
  const t = (kind === "note" ? notes : kind === "reply" ? replies : folders) as typeof notes;
  return db
    .select({ uid: t.userId, remote: isRemote(t.userId) })
    .from(t)
    .where(eq(t.id, id))
    .limit(1);
}

/**
 * One report per user per item: a repeat answers the same, and stores nothing new. A report is
 * never refused across a block: the blocked may still tell moderators about abuse. Answers whether
 * it was stored now, and the content's author (0 when gone) and whether they are elsewhere.
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
  const rows = await runNamed(db, {
    facts: targetFacts(db, kind, id, uid, true),
    added: insertWhere(
      db,
      reports,
      { userId: uid, kind, targetId: id, reason, note: extras.note ?? "", createdAt: Date.now() },
      targetAllows(db, kind, id, uid, true, false),
    )
      .onConflictDoNothing()
      .returning({ id: reports.id }),
    author: authorOf(db, kind, id),
  });
  const [facts] = rows.facts as TargetFacts[];
  const [author] = rows.author as { uid: number; remote: number }[];
  const refused = targetRefusal(facts, false);
  if (refused) throw refused;
  return { created: rows.added.length > 0, author: author?.uid ?? 0, remote: !!author?.remote };
}

/**
 * The Flag a report asks to forward to the reported posts' server (the web's "Forward to <host>",
 * a Mastodon app's `forward`), or null: only posts, and only those this report newly stored, so a
 * repeat sends nothing twice. Only posts whose author is on another server are given (report.action.ts).
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
