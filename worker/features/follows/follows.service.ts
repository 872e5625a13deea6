import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { runBatch } from "../../db/client";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { readOne } from "../../db/reads";
import { refusal, refusing } from "../../db/refuse";
import { follows } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { BLOCK_REFUSALS, refuseBlocks } from "../content/content";
import { authorActive, blockedEither, blockState, profileOpen, userInList } from "../safety/visibility";
import { notifyStatements, unnotifyStatements } from "../notifications/notifications.links";

// Both sides' counters move by the rows the follow's insert or delete just changed: one UPDATE
// of the two users right after it, so changes() is still the follow's own (O(1), race-proof).
const count = (db: DB, follower: number, followee: number, on: boolean) => {
  const d = on ? sql`changes()` : sql`-changes()`;
  return db
    .update(users)
    .set({
      followingNum: sql`${users.followingNum} + (case when ${users.id} = ${follower} then ${d} else 0 end)`,
      followerNum: sql`${users.followerNum} + (case when ${users.id} = ${followee} then ${d} else 0 end)`,
    })
    .where(inArray(users.id, [follower, followee]))
    .returning({ id: users.id, followers: users.followerNum });
};

/** What a follow's check refuses with (see follow). */
const FOLLOW_REFUSALS = { ...BLOCK_REFUSALS, not_found: () => notFound("User not found") };

/**
 * Follow or unfollow, in one D1 round trip: the check that the person exists and is active (and,
 * to follow, that no block stands between them) leads the batch and rolls it back when it fails.
 */
export async function follow(db: DB, follower: number, followee: number, on: boolean) {
  if (follower === followee) throw new AppError(422, "invalid_input", "You cannot follow yourself.");
  const check = db
    .select({
      ok: sql<number>`case when not exists (select 1 from ${users} where ${users.id} = ${followee} and ${authorActive(users.id)}) then ${refusal("not_found")} ${on ? refuseBlocks(sql`t.blocked`) : sql``} else 1 end`.as(
        "ok",
      ),
    })
    // The block state once, in the row the check reads (refuseBlocks names it twice).
    .from(on ? sql`(select ${blockState(follower, followee)} as blocked) t` : sql`(select 1)`);
  const note = { userId: followee, actorId: follower, action: "follow" as const };
  const [, , counted] = await refusing(
    runBatch(db, [
      check,
      on
        ? db.insert(follows).values({ followerId: follower, followeeId: followee }).onConflictDoNothing()
        : db.delete(follows).where(and(eq(follows.followerId, follower), eq(follows.followeeId, followee))),
      count(db, follower, followee, on),
      ...(on ? notifyStatements(db, note) : unnotifyStatements(db, note)),
    ]),
    FOLLOW_REFUSALS,
  );
  const row = (counted as { id: number; followers: number }[]).find((r) => r.id === followee);
  return { following: on, followers: row?.followers ?? 0 };
}

interface FollowRow {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  descr: string;
  at: number;
  following: number;
}

/** One page of the people `uid` follows or who follow them, newest first; empty across a block. */
export function followsRead(
  db: DB,
  uid: number,
  which: "following" | "followers",
  q: { page: number; cursor?: string },
  viewer: number,
) {
  const { after, offset } = startOf(q);
  const mine = which === "following" ? follows.followerId : follows.followeeId;
  const other = which === "following" ? follows.followeeId : follows.followerId;
  // The owner's lists are answered while their profile is (a suspended account's are a 404), in
  // the same round trip as the list.
  const open = planFrom(
    db
      .select({ ok: sql<number>`1`.as("x_ok") })
      .from(sql`(select 1)`)
      .where(profileOpen(uid, viewer || null)),
  );
  const list = planFrom(
    db
      .select({
        id: users.id,
        username: users.username,
        fullname: users.fullname,
        avatar: users.avatar,
        descr: users.descr,
        at: follows.createdAt,
        following:
          sql<number>`exists(select 1 from follows v where v.follower_id = ${viewer} and v.followee_id = ${users.id})`.as(
            "x_following",
          ),
      })
      .from(follows)
      .innerJoin(users, eq(users.id, other))
      .where(
        and(
          eq(mine, uid),
          // The list of someone who blocked the viewer (or whom they blocked) is empty to them.
          viewer ? sql`not ${blockedEither(viewer, uid)}` : undefined,
          userInList(sql`"users"`, viewer || null),
          after ? sql`(${follows.createdAt}, ${other}) < (${after.at}, ${after.id})` : undefined,
        ),
      )
      .orderBy(desc(follows.createdAt), desc(other))
      .limit(PAGE_SIZE + 1)
      .offset(offset),
  );
  return {
    statements: [bindPlan(db, open, {}), bindPlan(db, list, {})],
    value: ([opened, found]: D1Result<Record<string, unknown>>[]) => {
      if (!opened.results.length) throw notFound("User not found");
      const page = pageOf(namedObjects<FollowRow>(list, found.results), q.page, (r) => ({ at: r.at, id: r.id }));
      return {
        users: page.items.map(({ at: _at, following, ...u }) => ({
          ...u,
          following: !!following,
          me: u.id === viewer,
        })),
        paginator: page.paginator,
        cursor: page.cursor,
      };
    },
  };
}

export const listFollows = (...args: Parameters<typeof followsRead>) => readOne(args[0], followsRead(...args));
