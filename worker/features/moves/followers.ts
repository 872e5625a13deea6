// The follows of people here moved from an account that moved to the one it moved to (the queue's
// side, move-out.ts), and the one fact the outbox asks of every post: whether its author moved.
import { runBatch } from "../../db/client";
import type { DB, Env } from "../../env";
import { AppError } from "../../lib/errors";
import type { ActionContext } from "../federation/federate";
import { followAction } from "../follows/follow.action";
import { notifyStatements } from "../notifications/notifications.links";

/** Local followers moved per queue message: each is a follow and an unfollow. */
export const MOVE_CHUNK = 50;

/** Whether a local account moved away: it then federates no new posts. */
export const hasMoved = async (db: D1Database, uid: number) =>
  !!(await db.prepare("select 1 as x from account_moves where user_id = ?").bind(uid).first());

/** A follow our own rules refuse (a block between them, an account gone) is simply not made. */
async function unlessRefused<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

/**
 * The next `MOVE_CHUNK` people here who follow `from` (after follower id `after`) follow `to`
 * instead, each told by a notification, as Mastodon's MoveWorker and UnfollowFollowWorker: one
 * whose follow of the new account is refused (a block between them) keeps following the old one.
 * Each is the follow action's (follows of someone elsewhere are told there). Answers the last
 * follower seen, or null when there are no more.
 */
export async function moveFollowers(
  env: Env,
  db: DB,
  origin: string,
  m: { from: number; to: number; after: number },
): Promise<number | null> {
  const rows = await env.DB.prepare(
    `select follower_id as id from follows where followee_id = ? and remote = 0 and follower_id > ?
     order by follower_id limit ?`,
  )
    .bind(m.from, m.after, MOVE_CHUNK)
    .all<{ id: number }>();
  // The queue's own run of the follow action: what it writes, streams and delivers is a follow's.
  const ctx: ActionContext = { db, env, origin, inbound: false, after: async (_what, work) => void (await work()) };
  for (const { id } of rows.results) {
    const on = id === m.to ? null : await unlessRefused(followAction(ctx, id, m.to, true));
    if (!on) continue;
    await followAction(ctx, id, m.from, false);
    await runBatch(
      db,
      notifyStatements(db, { userId: id, actorId: m.from, action: "move", tblname: "user", targetId: m.to }),
    );
  }
  return rows.results.length < MOVE_CHUNK ? null : rows.results[rows.results.length - 1].id;
}
