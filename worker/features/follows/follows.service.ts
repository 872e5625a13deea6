import { and, desc, eq, inArray, type Placeholder, type SQL, sql } from "drizzle-orm";
import { type BuiltStatement, bindNamed, bindPlan, namedBatchPlanOf, namedObjects, planFrom } from "../../db/plan";
import { namedRead, readOne } from "../../db/reads";
import { followRequests } from "../../db/schema/federation";
import { follows } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { blockRefusal } from "../safety/safety.service";
import { isLocal, isRemote } from "../users/locality";
import {
  authorActive,
  blockedEither,
  blockState,
  profileOpen,
  serverBlockState,
  userInList,
} from "../safety/visibility";
import { notifyStatements, unnotifyStatements } from "../notifications/notifications.links";
import { PERSON_COLUMNS } from "./suggestions.service";
import { insertWhere } from "../../db/insert";

const followRow = (follower: Placeholder, followee: Placeholder) =>
  sql`exists(select 1 from follows where follower_id = ${follower} and followee_id = ${followee})`;

/**
 * Both sides' counters, moved by one in a statement whose own `where` holds exactly when the
 * follow's insert (or delete) after it changes a row: the follow is not there yet (or is), and
 * the write is allowed. O(1), and a repeat moves nothing.
 */
const count = (db: DB, follower: Placeholder, followee: Placeholder, on: boolean, allowed: SQL) => {
  const d = on ? 1 : -1;
  return db
    .update(users)
    .set({
      followingNum: sql`${users.followingNum} + (case when ${users.id} = ${follower} then ${d} else 0 end)`,
      followerNum: sql`${users.followerNum} + (case when ${users.id} = ${followee} then ${d} else 0 end)`,
    })
    .where(
      and(
        inArray(users.id, [follower, followee]),
        allowed,
        on ? sql`not ${followRow(follower, followee)}` : followRow(follower, followee),
      ),
    );
};

/**
 * A follow's (or unfollow's) batch, with the request's values as placeholders (follower, followee,
 * now): whether the person exists and is active and the block state between them first, then
 * every write holding the same condition, and the followee's count as the writes left it.
 */
function followBatch(db: DB, on: boolean): Record<string, BuiltStatement> {
  const [follower, followee] = [sql.placeholder("follower"), sql.placeholder("followee")];
  const found = sql`exists(select 1 from ${users} where ${users.id} = ${followee} and ${authorActive(users.id)})`;
  // To follow, no block may stand either way (of the person, or of either one's server by the
  // other); to unfollow, the person need only be there.
  const permitted = on
    ? sql`(${found} and ${blockState(follower, followee)} = 0 and ${serverBlockState(follower, followee)} = 0)`
    : found;
  // Someone here following a locked account elsewhere only asks: the follow waits for their Accept
  // (`approved`: it came) as a follow request, and counts nothing until then.
  const locked = sql`(${sql.placeholder("approved")} = 0
    and exists(select 1 from remote_actors where user_id = ${followee} and locked = 1)
    and ${isLocal(follower)})`;
  const allowed = on ? sql`(${permitted} and not ${locked})` : permitted;
  const asked = and(eq(followRequests.followerId, follower), eq(followRequests.followeeId, followee));
  // Asked, unless already following (an account that locked after the follow).
  const pending = sql`(${permitted} and ${locked} and not ${followRow(follower, followee)})`;
  const facts = db
    .select({
      found: sql<number>`${found}`.as("found"),
      blocked: blockState(follower, followee).as("blocked"),
      server: serverBlockState(follower, followee).as("server"),
      // Someone on another server is told of the follow; between two local people nothing is queued.
      remote: isRemote(followee).as("remote"),
      requested: sql<number>`${on ? pending : sql`0`}`.as("requested"),
    })
    .from(sql`(select 1)`);
  const note = { userId: followee, actorId: follower, action: "follow" as const };
  const notices = on
    ? notifyStatements(db, { ...note, when: allowed })
    : unnotifyStatements(db, { ...note, when: allowed });
  return {
    facts,
    counted: count(db, follower, followee, on, allowed),
    write: on
      ? insertWhere(
          db,
          follows,
          {
            followerId: sql`${follower}`,
            followeeId: sql`${followee}`,
            createdAt: sql`${sql.placeholder("now")}`,
            // The follower is on another server (left out of new-note notices, schema/social.ts).
            remote: isRemote(follower),
          },
          allowed,
        ).onConflictDoNothing()
      : db.delete(follows).where(and(eq(follows.followerId, follower), eq(follows.followeeId, followee), allowed)),
    followers: db.select({ followers: users.followerNum }).from(users).where(eq(users.id, followee)),
    // A request is made while the account is locked; it ends when the follow stands, or is withdrawn.
    ...(on
      ? {
          asked: insertWhere(
            db,
            followRequests,
            { followerId: sql`${follower}`, followeeId: sql`${followee}`, createdAt: sql`${sql.placeholder("now")}` },
            pending,
          ).onConflictDoNothing(),
          answered: db.delete(followRequests).where(and(asked, allowed)),
        }
      : { withdrawn: db.delete(followRequests).where(asked) }),
    ...Object.fromEntries(notices.map((statement, i) => [`notice${i}`, statement])),
  };
}

/** A follow refused by a server block (serverBlockState: 1 mine of theirs, 2 theirs of mine), else null. */
const serverRefusal = (state: number) =>
  state === 1
    ? new AppError(403, "blocked", "You have blocked this user's server. Unblock it to follow them.")
    : state === 2
      ? new AppError(403, "blocked", "This user has blocked your server.")
      : null;

/**
 * Follow or unfollow, in one D1 round trip: the batch first reads whether the person exists and is
 * active (and the block state between them), and every write in it holds the same condition, so a
 * refused follow (404, or 403 across a block) changes nothing and is answered from what was read.
 * The batch is built once and only bound here.
 */
export async function follow(db: DB, follower: number, followee: number, on: boolean, approved = false) {
  if (follower === followee) throw new AppError(422, "invalid_input", "You cannot follow yourself.");
  const plans = namedBatchPlanOf(`follow|${+on}`, () => followBatch(db, on));
  const values = { follower, followee, now: Date.now(), approved: +approved };
  const results = await readOne(
    db,
    namedRead(bindNamed(db, plans, values), (r) => r),
  );
  const [read] = namedObjects<{ found: number; blocked: number; server: number; remote: number; requested: number }>(
    plans.facts,
    results.facts.results,
  );
  if (!read?.found) throw notFound("User not found");
  const refused = on ? (blockRefusal(read.blocked) ?? serverRefusal(read.server)) : null;
  if (refused) throw refused;
  const [counted] = namedObjects<{ followers: number }>(plans.followers, results.followers.results);
  const requested = !!read.requested;
  return {
    // `requested` only while a follow waits for a locked account's answer (the answer is otherwise as it was).
    answer: { following: on && !requested, followers: counted?.followers ?? 0, ...(requested ? { requested } : {}) },
    remote: !!read.remote,
  };
}

/** Whether `follower` asked to follow the locked account `followee` and waits for the answer. */
export async function followRequested(db: DB, follower: number, followee: number) {
  const [row] = await db
    .select({ x: sql<number>`1` })
    .from(followRequests)
    .where(and(eq(followRequests.followerId, follower), eq(followRequests.followeeId, followee)));
  return !!row;
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

/**
 * One page of the people `uid` follows or who follow them, newest first; empty across a block.
 * `uid` is an id, or SQL naming the person (idNamed: a profile page knows only the name in its
 * address, and reads the list in the same batch as the person).
 */
export function followsRead(
  db: DB,
  uid: number | SQL,
  which: "following" | "followers",
  q: { page: number; cursor?: string },
  viewer: number,
  size = PAGE_SIZE,
  /** Columns a caller reads on each person's row besides these (over `users`): kept on each user. */
  extra?: Record<string, SQL.Aliased>,
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
        ...PERSON_COLUMNS,
        at: follows.createdAt,
        following:
          sql<number>`exists(select 1 from follows v where v.follower_id = ${viewer} and v.followee_id = ${users.id})`.as(
            "x_following",
          ),
        ...extra,
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
      .limit(size + 1)
      .offset(offset),
  );
  return {
    statements: [bindPlan(db, open, {}), bindPlan(db, list, {})],
    value: ([opened, found]: D1Result<Record<string, unknown>>[]) => {
      if (!opened.results.length) throw notFound("User not found");
      const page = pageOf(namedObjects<FollowRow>(list, found.results), q.page, (r) => ({ at: r.at, id: r.id }), size);
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
