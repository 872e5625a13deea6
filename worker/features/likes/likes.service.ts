import { and, eq, type SQL, sql } from "drizzle-orm";
import { batchPlanOf, bindPlan, namedObjects } from "../../db/plan";
import { type Read, readOne } from "../../db/reads";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { likes, replies } from "../../db/schema/social";
import type { DB } from "../../env";
import {
  type Bound,
  type ContentKind,
  rowsAbout,
  type TargetFacts,
  targetAllows,
  targetFacts,
  targetRefusal,
} from "../content/content";
import { notifyStatements, unnotifyStatements } from "../notifications/notifications.links";
import { isRemote } from "../users/locality";

/** The kind as a constant of the statement (not a bound value: a plan's shape stays the same). */
const KIND_LITERAL = { note: sql`'note'`, reply: sql`'reply'` } as const;

/** Whether `viewer` liked a (kind, target): one primary-key lookup, for a list's select. */
export const likedBy = (viewer: unknown, kind: "note" | "reply", target: SQL) =>
  sql<number>`exists(select 1 from likes l where l.user_id = ${viewer} and l.kind = ${KIND_LITERAL[kind]} and l.target_id = ${target})`;

/** The likes of one target (an x-folder's whatever kind they were made under). */
const likesOf = (kind: ContentKind, id: Bound) => rowsAbout(likes, kind, id);

const tableOf = (kind: ContentKind) => (kind === "note" ? notes : kind === "reply" ? replies : folders);

/**
 * likenum of the note, reply or folder as the like's write left it (the likes_count_* triggers move
 * it), and whether it is a post from another server (then the like is told there; otherwise
 * nothing is queued).
 */
function likenumOf(db: DB, kind: ContentKind, id: Bound) {
  const table = tableOf(kind);
  const remote = isRemote(table.userId).as("remote");
  return db.select({ likenum: table.likenum, remote }).from(table).where(eq(table.id, id));
}

/**
 * A like's (or unlike's) batch for one kind, with the request's values as placeholders (user, id,
 * now): the target's facts first, then the write and its notification, each guarded by the same
 * condition, and the count as the write left it.
 */
function likeBatch(db: DB, kind: ContentKind, on: boolean) {
  const [userId, id] = [sql.placeholder("user"), sql.placeholder("id")];
  const mine = and(eq(likes.userId, userId), likesOf(kind, id));
  // To undo one's own like the target need only exist (it may have become hidden or blocked since).
  const allowed = targetAllows(db, kind, id, userId, on, on);
  const write = on
    ? db
        .insert(likes)
        .select(
          sql`select ${userId}, ${kind}, ${id}, ${sql.placeholder("now")} where ${allowed} and not exists (select 1 from likes where ${mine})`,
        )
        .onConflictDoNothing()
    : db.delete(likes).where(and(mine, allowed));
  const noti = {
    userId: sql<number>`(select user_id from ${tableOf(kind)} where id = ${id})`,
    actorId: userId,
    action: "like" as const,
    tblname: kind === "reply" ? "reply" : kind === "note" ? "note" : "folder",
    targetId: id,
  };
  return [
    targetFacts(db, kind, id, userId, on),
    write,
    likenumOf(db, kind, id),
    ...(on ? notifyStatements(db, { ...noti, when: allowed }) : unnotifyStatements(db, { ...noti, when: allowed })),
  ];
}

type Liked = { liked: boolean; likenum: number; remote: boolean };

/**
 * Like or unlike, as the statements of one batch and its answer from their results: the batch
 * reads the target's facts first and every write in it is guarded by the same condition, so a
 * refused like (404, or 403 across a block) changes nothing and is answered from the facts; the
 * notification names the owner by a subquery. The batch is built once per kind and only bound
 * here. A caller may add reads after it (the Mastodon API reads the status back).
 */
export function likeWrite(db: DB, userId: number, kind: ContentKind, id: number, on: boolean): Read<Liked> {
  const batch = batchPlanOf(`like|${kind}|${+on}`, () => likeBatch(db, kind, on));
  const values = { user: userId, id, now: Date.now() };
  return {
    statements: batch.map((plan) => bindPlan(db, plan, values)),
    // The count moves with the row itself (a trigger): a repeat or a racing twin inserts nothing
    // and adds 0, in O(1); it is read back in the same batch.
    value: ([read, , count]) => {
      const [facts] = namedObjects<TargetFacts>(batch[0], read.results);
      const refused = targetRefusal(facts, on);
      if (refused) throw refused;
      const [counted] = namedObjects<{ likenum: number; remote: number }>(batch[2], count.results);
      return { liked: on, likenum: counted?.likenum ?? 0, remote: !!counted?.remote };
    },
  };
}

/** Like or unlike, in one D1 round trip. */
export const like = (db: DB, userId: number, kind: ContentKind, id: number, on: boolean) =>
  readOne(db, likeWrite(db, userId, kind, id, on));
