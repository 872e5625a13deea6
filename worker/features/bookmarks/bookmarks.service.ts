import { and, eq, sql } from "drizzle-orm";
import { bookmarks } from "../../db/schema/social";
import type { DB } from "../../env";
import { runBatch } from "../../db/client";
import { type ContentKind, type TargetFacts, targetAllows, targetFacts, targetRefusal } from "../content/content";
import { type ListShape, listRead } from "../notes/read.service";
import { type ReplyList, repliesRead } from "../replies/replies.service";
import type { NoteList } from "../notes/notes.types";
import { bindPlan, planFrom } from "../../db/plan";
import { type Read, readOne } from "../../db/reads";

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

/** The saved notes, or the saved replies, of `uid`: newest saved first. One statement. */
export function bookmarksRead(
  db: DB,
  uid: number,
  q: { page: number; cursor?: string; t: "note" | "rep" | "reply" },
): Read<NoteList | ReplyList> {
  if (q.t === "note") return listRead(db, BOOKMARKED_NOTES, { uid }, q, uid);
  return repliesRead(
    db,
    sql`replies.id in (select target_id from bookmarks where user_id = ${uid} and kind = 'reply')`,
    q,
    uid,
    "desc",
  );
}

export const listBookmarks = (...args: Parameters<typeof bookmarksRead>) => readOne(args[0], bookmarksRead(...args));

/** Whether `uid` saved the content: one statement. */
export function bookmarkedRead(db: DB, uid: number, kind: ContentKind, id: number): Read<{ bookmarked: boolean }> {
  const plan = planFrom(
    db
      .select({ one: sql`1`.as("x_one") })
      .from(bookmarks)
      .where(mine(uid, kind, id))
      .limit(1),
  );
  return { statements: [bindPlan(db, plan, {})], value: ([r]) => ({ bookmarked: r.results.length > 0 }) };
}

export const isBookmarked = (...args: Parameters<typeof bookmarkedRead>) => readOne(args[0], bookmarkedRead(...args));

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
