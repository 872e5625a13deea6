// Blocks and mutes. A block cuts the follows both ways (their counters move by the rows removed,
// in the same batch) and the notifications the two sent each other; a mute removes the muted
// person's notifications to the muter. Both are idempotent, like every interaction.
import { and, desc, eq, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { readOne } from "../../db/reads";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { blocks, mutes } from "../../db/schema/safety";
import { follows, notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { isRemote } from "../users/locality";
import { blockState } from "./visibility";

const follow = (a: number, b: number) => and(eq(follows.followerId, a), eq(follows.followeeId, b));

/** Both users' follow counters drop by the follow a→b, if it exists; run before deleting it. */
function unfollowCounters(db: DB, a: number, b: number): BatchItem<"sqlite">[] {
  const exists = sql`exists(select 1 from follows where follower_id = ${a} and followee_id = ${b})`;
  return [
    db
      .update(users)
      .set({ followingNum: sql`${users.followingNum} - 1` })
      .where(and(eq(users.id, a), exists)),
    db
      .update(users)
      .set({ followerNum: sql`${users.followerNum} - 1` })
      .where(and(eq(users.id, b), exists)),
  ];
}

/** Removes what `actor` notified `userId` of (the badge follows the rows: the notifications_unread_* triggers). */
export function dropNotifications(db: DB, userId: number, actor: number): BatchItem<"sqlite">[] {
  return [db.delete(notifications).where(and(eq(notifications.userId, userId), eq(notifications.actorId, actor)))];
}

/** The other person, and whether they are on another server (locality.ts). */
async function otherUser(db: DB, me: number, uid: number, verb: string) {
  if (me === uid) throw new AppError(422, "invalid_input", `You cannot ${verb} yourself.`);
  const [row] = await db
    .select({ id: users.id, remote: isRemote(users.id) })
    .from(users)
    .where(eq(users.id, uid))
    .limit(1);
  if (!row) throw notFound("User not found");
  return { remote: !!row.remote };
}

/** Block or unblock; answers whether the blocked person is on another server (their server is then told). */
export async function block(db: DB, me: number, uid: number, on: boolean) {
  const { remote } = await otherUser(db, me, uid, "block");
  const key = and(eq(blocks.blockerId, me), eq(blocks.blockedId, uid));
  if (!on) {
    await db.delete(blocks).where(key);
    return { blocking: false, remote };
  }
  await db.batch([
    db.insert(blocks).values({ blockerId: me, blockedId: uid }).onConflictDoNothing(),
    ...unfollowCounters(db, me, uid),
    ...unfollowCounters(db, uid, me),
    // Two primary-key deletes: an OR of the two keys is planned as a scan of one side's follows.
    db.delete(follows).where(follow(me, uid)),
    db.delete(follows).where(follow(uid, me)),
    ...dropNotifications(db, me, uid),
    ...dropNotifications(db, uid, me),
  ]);
  return { blocking: true, remote };
}

export async function mute(db: DB, me: number, uid: number, on: boolean) {
  await otherUser(db, me, uid, "mute");
  if (!on) {
    await db.delete(mutes).where(and(eq(mutes.muterId, me), eq(mutes.mutedId, uid)));
    return { muting: false };
  }
  await db.batch([
    db.insert(mutes).values({ muterId: me, mutedId: uid }).onConflictDoNothing(),
    ...dropNotifications(db, me, uid),
  ]);
  return { muting: true };
}

/** A page of the people `me` blocked or muted, newest first, along (owner, created_at, other). */
export function relationsRead(
  db: DB,
  which: "blocks" | "mutes",
  me: number,
  q: { page: number; cursor?: string },
  size = PAGE_SIZE,
) {
  const [table, owner, other, at]: [typeof blocks | typeof mutes, SQLiteColumn, SQLiteColumn, SQLiteColumn] =
    which === "blocks"
      ? [blocks, blocks.blockerId, blocks.blockedId, blocks.createdAt]
      : [mutes, mutes.muterId, mutes.mutedId, mutes.createdAt];
  const { after, offset } = startOf(q);
  const plan = planFrom(
    db
      .select({ id: users.id, username: users.username, fullname: users.fullname, avatar: users.avatar, at })
      .from(table)
      .innerJoin(users, eq(users.id, other))
      .where(and(eq(owner, me), after ? sql`(${at}, ${other}) < (${after.at}, ${after.id})` : undefined))
      .orderBy(desc(at), desc(other))
      .limit(size + 1)
      .offset(offset),
  );
  type Row = { id: number; username: string; fullname: string; avatar: string; at: number };
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]: D1Result<Record<string, unknown>>[]) => {
      const page = pageOf(namedObjects<Row>(plan, r.results), q.page, (row) => ({ at: row.at, id: row.id }), size);
      return {
        users: page.items.map(({ at: _at, ...u }) => ({ ...u, me: false })),
        paginator: page.paginator,
        cursor: page.cursor,
      };
    },
  };
}

export const listOf = (...args: Parameters<typeof relationsRead>) => readOne(args[0], relationsRead(...args));

/** The 403 of an interaction across a block (state from blockState: 1 I blocked them, 2 they blocked me). */
export const blockedError = (state: 1 | 2) =>
  state === 1
    ? new AppError(403, "blocked", "You have blocked this user. Unblock them to interact.")
    : new AppError(403, "blocked", "This user has blocked you.");

/** blockedError for a block state of 1 or 2, else null (no block). */
export const blockRefusal = (state: number | null | undefined) =>
  state === 1 || state === 2 ? blockedError(state) : null;

/** Throws blockedError for a block state of 1 or 2. */
export function refuseBlocked(state: number | null | undefined) {
  const refused = blockRefusal(state);
  if (refused) throw refused;
}

/** Refuses an interaction between `me` and `owner` across a block: one query, for writes that have no other. */
export async function assertNotBlocked(db: DB, me: number, owner: number) {
  if (me === owner) return;
  const [row] = await db
    .select({ s: blockState(me, owner) })
    .from(users)
    .where(eq(users.id, me));
  refuseBlocked(row?.s);
}
