// One person's record as a read (db/reads.ts): a single statement with their counts, their label
// and folder-type tallies, and how the viewer stands with them, so a page sends it in its own
// batch (the signed-in person's record rides on every page for the sidebar and the badge).
import { sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import type { Read } from "../../db/reads";
import { userLabels, users, userTypes } from "../../db/schema/users";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { isModerator } from "../safety/visibility";
import type { UserJson, UserStats } from "./users.service";
import { storedLinks } from "./profile.schema";

const P = (name: string) => sql.placeholder(name);

/** A tally table's rows for the user as one JSON object (label or type → count), counts > 0 only. */
const tally = (t: typeof userLabels | typeof userTypes, key: SQLiteColumn) =>
  sql<string>`(select json_group_object(${key}, ${t.n}) from ${t} where ${t.userId} = ${users.id} and ${t.n} > 0)`;

/** The statement for `by` ("id" or "username"), built once per shape; `viewer` is 0 for a visitor. */
function userPlan(db: DB, by: "id" | "username") {
  return planOf(`user|${by}`, () =>
    db
      .select({
        id: users.id,
        username: users.username,
        fullname: users.fullname,
        avatar: users.avatar,
        cover: users.cover,
        descr: users.descr,
        headline: users.headline,
        location: users.location,
        links: users.links,
        confirmed: users.confirmed,
        email: users.email,
        pendingEmail: users.pendingEmail,
        hasPassword: sql<number>`${users.passwordHash} is not null`.as("x_has_password"),
        role: users.role,
        suspendedAt: users.suspendedAt,
        followingNum: users.followingNum,
        followerNum: users.followerNum,
        noteNum: users.noteNum,
        notiNum: users.notiNum,
        invitationNum: users.invitationNum,
        labels: tally(userLabels, userLabels.label).as("x_labels"),
        types: tally(userTypes, userTypes.type).as("x_types"),
        following:
          sql<number>`exists(select 1 from follows f where f.follower_id = ${P("viewer")} and f.followee_id = ${users.id})`.as(
            "x_following",
          ),
        // A follow of a locked account elsewhere, waiting for their answer.
        requested:
          sql<number>`exists(select 1 from follow_requests r where r.follower_id = ${P("viewer")} and r.followee_id = ${users.id})`.as(
            "x_requested",
          ),
        blocking:
          sql<number>`exists(select 1 from blocks where blocker_id = ${P("viewer")} and blocked_id = ${users.id})`.as(
            "x_blocking",
          ),
        blockedBy:
          sql<number>`exists(select 1 from blocks where blocker_id = ${users.id} and blocked_id = ${P("viewer")})`.as(
            "x_blocked_by",
          ),
        muting: sql<number>`exists(select 1 from mutes where muter_id = ${P("viewer")} and muted_id = ${users.id})`.as(
          "x_muting",
        ),
        staff: sql<number>`${isModerator(P("viewer"))}`.as("x_staff"),
        // A person on another server: their profile there (the actor URI when they name no page).
        remoteUrl: sql<
          string | null
        >`(select coalesce(nullif(ra.url, ''), ra.uri) from remote_actors ra where ra.user_id = ${users.id})`.as(
          "x_remote_url",
        ),
        // An account that moved (features/moves): the name of the one it moved to. drizzle writes
        // the outer id unqualified, so no table with an id column may sit beside it in the subquery.
        movedTo: sql<
          string | null
        >`(select (select t.username from users t where t.id = m.target_id) from account_moves m where m.user_id = ${users.id})`.as(
          "x_moved_to",
        ),
        // And the account that moved here, when its Move was verified (the newest, if several did).
        movedFrom: sql<
          string | null
        >`(select (select s.username from users s where s.id = m.user_id) from account_moves m where m.target_id = ${users.id} order by m.created_at desc limit 1)`.as(
          "x_moved_from",
        ),
      })
      .from(users)
      .where(by === "id" ? sql`${users.id} = ${P("id")}` : sql`lower(${users.username}) = lower(${P("username")})`)
      .limit(1),
  );
}

interface UserRow {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  cover: string;
  descr: string;
  headline: string;
  location: string;
  links: string;
  confirmed: number;
  email: string;
  pendingEmail: string | null;
  hasPassword: number;
  role: string;
  suspendedAt: number | null;
  followingNum: number;
  followerNum: number;
  noteNum: number;
  notiNum: number;
  invitationNum: number;
  labels: string | null;
  types: string | null;
  following: number;
  requested: number;
  blocking: number;
  blockedBy: number;
  muting: number;
  staff: number;
  remoteUrl: string | null;
  movedTo: string | null;
  movedFrom: string | null;
}

/**
 * The user with id `where.id` or named `where.username` (any case), as `viewerId` sees them; a
 * missing or suspended one (to all but moderators) is "User not found".
 */
export function userRead(
  db: DB,
  where: { id: number } | { username: string },
  viewerId: number | null,
): Read<UserJson> {
  const by = "id" in where ? "id" : "username";
  const plan = userPlan(db, by);
  return {
    statements: [bindPlan(db, plan, { ...where, viewer: viewerId ?? 0 })],
    value: ([r]) => {
      const [u] = namedObjects<UserRow>(plan, r.results);
      if (!u || (u.suspendedAt && !u.staff)) throw notFound("User not found");
      return toUserJson(u, viewerId);
    },
  };
}

/** The counts; the unread ones (noti, invitation) only for the person themselves. */
const statsOf = (u: UserRow, isMe: boolean): UserStats => ({
  following: u.followingNum,
  follower: u.followerNum,
  note: u.noteNum,
  ...(isMe ? { noti: u.notiNum, invitation: u.invitationNum } : {}),
});

function toUserJson(u: UserRow, viewerId: number | null): UserJson {
  const isMe = viewerId === u.id;
  const stats = statsOf(u, isMe);
  // Across a block (either way) the person's folders and notes are not listed for the viewer, so
  // the filters that count them count nothing either.
  const cut = !isMe && !!(u.blocking || u.blockedBy);
  const types: Record<string, number> = cut ? {} : JSON.parse(u.types ?? "{}");
  const labels: Record<string, number> = cut ? {} : JSON.parse(u.labels ?? "{}");
  return {
    id: u.id,
    username: u.username,
    fullname: u.fullname,
    avatar: u.avatar,
    cover: u.cover,
    descr: u.descr,
    headline: u.headline,
    location: u.location,
    links: storedLinks(u.links),
    confirmed: !!u.confirmed,
    me: isMe,
    // Nobody follows, blocks or mutes themselves: on their own record these stay false.
    following: !isMe && !!u.following,
    requested: !isMe && !!u.requested,
    jstats: JSON.stringify(stats),
    jstype: JSON.stringify(types),
    jslabel: JSON.stringify(labels),
    stats,
    types,
    labels,
    blocking: !isMe && !!u.blocking,
    blocked_by: !isMe && !!u.blockedBy,
    muting: !isMe && !!u.muting,
    ...(u.remoteUrl ? { remote_url: u.remoteUrl } : {}),
    ...(u.movedTo ? { moved_to: u.movedTo } : {}),
    ...(u.movedFrom ? { moved_from: u.movedFrom } : {}),
    ...(isMe ? { email: u.email, pending_email: u.pendingEmail, has_password: !!u.hasPassword, role: u.role } : {}),
  };
}

/**
 * The account that gave up `username` and still has no one else holding it: its id and name now,
 * or null. One statement, so a page by a name can ask for it beside the person it names.
 */
export function formerOwnerRead(db: DB, username: string): Read<{ id: number; username: string } | null> {
  const plan = planOf("user|former", () =>
    db
      .select({ id: users.id, username: users.username })
      .from(users)
      .where(
        sql`${users.id} = (select f.user_id from former_usernames f where f.username = lower(${P("name")}))
          and ${users.suspendedAt} is null
          and not exists (select 1 from users h where lower(h.username) = lower(${P("name")}))`,
      )
      .limit(1),
  );
  return {
    statements: [bindPlan(db, plan, { name: username })],
    value: ([r]) => namedObjects<{ id: number; username: string }>(plan, r.results)[0] ?? null,
  };
}
