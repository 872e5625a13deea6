import { and, eq, sql } from "drizzle-orm";
import { bookmarks } from "../../db/schema/social";
import type { DB } from "../../env";
import { runBatch } from "../../db/client";
import { type ContentKind, type TargetFacts, targetAllows, targetFacts, targetRefusal } from "../content/content";
import { type ListShape, listNotes } from "../notes/read.service";
import { listReplies } from "../replies/replies.service";

const mine = (uid: number, kind: string, id: number) =>
  and(eq(bookmarks.userId, uid), eq(bookmarks.kind, kind), eq(bookmarks.targetId, id));

/** Newest saved first, read along bookmarks (user_id, kind, created_at, target_id). */
const BOOKMARKED_NOTES: ListShape = {
  name: "bookmarks",
  driver: {
    table: bookmarks,
    at: bookmarks.createdAt,
    id: bookmarks.targetId,
    where: and(eq(bookmarks.userId, sql.placeholder("uid")), eq(bookmarks.kind, "note")),
  },
};

/** The saved notes, or the saved replies, of `uid`: newest saved first. */
export async function listBookmarks(
  db: DB,
  uid: number,
  q: { page: number; cursor?: string; t: "note" | "rep" | "reply" },
) {
  // Awaited here, not handed on: a list that refuses its cursor rejects before its first await, and
  // workerd reports a rejection no handler holds at that moment (the caller's await comes a tick later).
  if (q.t === "note") return await listNotes(db, BOOKMARKED_NOTES, { uid }, q, uid);
  return await listReplies(
    db,
    sql`replies.id in (select target_id from bookmarks where user_id = ${uid} and kind = 'reply')`,
    q,
    uid,
    "desc",
  );
}

export async function isBookmarked(db: DB, uid: number, kind: ContentKind, id: number) {
  const [row] = await db
    .select({ one: sql`1` })
    .from(bookmarks)
    .where(mine(uid, kind, id))
    .limit(1);
  return { bookmarked: !!row };
}

/** Saves or unsaves; saving again is a no-op, and nothing is saved across a block. */
export async function bookmark(db: DB, uid: number, kind: ContentKind, id: number, on: boolean) {
  if (!on) {
    await db.delete(bookmarks).where(mine(uid, kind, id));
    return { bookmarked: false };
  }
  // The target's facts lead the insert's own batch (one round trip); the insert holds the same
  // condition in its own statement, so a refused bookmark stores nothing.
  const [[facts]] = (await runBatch(db, [
    targetFacts(db, kind, id, uid, true),
    db
      .insert(bookmarks)
      .select(sql`select ${uid}, ${kind}, ${id}, ${Date.now()} where ${targetAllows(db, kind, id, uid, true, true)}`)
      .onConflictDoNothing(),
  ])) as [TargetFacts[]];
  const refused = targetRefusal(facts, true);
  if (refused) throw refused;
  return { bookmarked: true };
}
