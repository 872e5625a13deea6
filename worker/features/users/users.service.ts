import { and, desc, eq, gt, inArray, isNull, ne, notInArray, type SQL, sql } from "drizzle-orm";
import { follows } from "../../db/schema/social";
import { formerUsernames, userLabels, users, userTypes } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { isModerator } from "../safety/visibility";

type UserRow = typeof users.$inferSelect;

/** A person's counts; the unread ones only on their own record. */
export interface UserStats {
  following: number;
  follower: number;
  note: number;
  noti?: number;
  invitation?: number;
}

/**
 * The spec's User and viewer-relative flags. The spec's wire fields carry the counters as JSON text
 * (jstats, jstype, jslabel) for API clients; `stats`, `types` and `labels` are the same values as
 * objects, which pages read, so no page decodes a storage format.
 */
export interface UserJson {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  cover: string;
  descr: string;
  confirmed: boolean;
  me: boolean;
  following: boolean;
  jstats: string;
  jstype: string;
  jslabel: string;
  stats: UserStats;
  /** Folder type → how many of the person's x-folders have it (count > 0). */
  types: Record<string, number>;
  /** x-label → how many of the person's notes carry it (count > 0). */
  labels: Record<string, number>;
  email?: string;
  /** Only for the person: an address asked for that becomes `email` once its link is opened. */
  pending_email?: string | null;
  /** Only for the person: false for a Google-only account (it confirms deletion by username). */
  has_password?: boolean;
  /** The viewer blocked this user / this user blocked the viewer / the viewer muted this user. */
  blocking: boolean;
  blocked_by: boolean;
  muting: boolean;
  /** Only for a person on another server (username `name@host`): their profile page there. */
  remote_url?: string;
  /** Only on the viewer's own record: user, moderator or admin. */
  role?: string;
}

const toMap = (rows: { k: string; n: number }[]): Record<string, number> =>
  Object.fromEntries(rows.filter((r) => r.n > 0).map((r) => [r.k, r.n]));

/** The counts; the unread ones (noti, invitation) only for the person themselves (issue 20 §4). */
export function jstats(u: UserRow, isMe: boolean): UserStats {
  return {
    following: u.followingNum,
    follower: u.followerNum,
    note: u.noteNum,
    ...(isMe ? { noti: u.notiNum, invitation: u.invitationNum } : {}),
  };
}

/** The person, their label counts and their type counts, for the user matched by `cond`. */
const countStatements = (db: DB, cond: SQL) => {
  const id = db.select({ id: users.id }).from(users).where(cond).limit(1);
  return [
    db.select().from(users).where(cond).limit(1),
    db.select({ k: userLabels.label, n: userLabels.n }).from(userLabels).where(inArray(userLabels.userId, id)),
    db.select({ k: userTypes.type, n: userTypes.n }).from(userTypes).where(inArray(userTypes.userId, id)),
  ] as const;
};
type CountRows = [UserRow[], { k: string; n: number }[], { k: string; n: number }[]];

/**
 * One D1 round trip: the user, their label and type counts, and whether the viewer follows,
 * blocks or mutes them. A person reading their own record (/me, on every signed-in page) skips
 * those relations, which are always false there: two statements fewer.
 */
export async function loadUser(
  db: DB,
  where: { id?: number; username?: string },
  viewerId: number | null,
): Promise<UserJson> {
  const cond =
    where.id !== undefined ? eq(users.id, where.id) : sql`lower(${users.username}) = lower(${where.username ?? ""})`;
  const id = db.select({ id: users.id }).from(users).where(cond).limit(1);
  const viewer = viewerId ?? 0;
  const self = where.id !== undefined && where.id === viewerId;
  const counts = countStatements(db, cond);
  const relations = [
    db
      .select({ one: sql<number>`1` })
      .from(follows)
      .where(and(eq(follows.followerId, viewer), inArray(follows.followeeId, id)))
      .limit(1),
    db
      .select({
        blocking: sql<number>`exists(select 1 from blocks where blocker_id = ${viewer} and blocked_id = ${users.id})`,
        blockedBy: sql<number>`exists(select 1 from blocks where blocker_id = ${users.id} and blocked_id = ${viewer})`,
        muting: sql<number>`exists(select 1 from mutes where muter_id = ${viewer} and muted_id = ${users.id})`,
        staff: isModerator(viewer),
        // A person on another server: their profile there (the actor URI when they name no page).
        remoteUrl: sql<
          string | null
        >`(select coalesce(nullif(ra.url, ''), ra.uri) from remote_actors ra where ra.user_id = ${users.id})`,
      })
      .from(users)
      .where(cond)
      .limit(1),
  ] as const;
  const all = self ? await db.batch(counts) : await db.batch([...counts, ...relations]);
  // A renamed account is found by its former name while nobody else holds it (issue 21 item 16):
  // the answer carries the name it has now, and pages under the old one redirect there.
  if (!all[0][0] && where.username !== undefined) {
    const owner = await formerOwner(db, where.username);
    if (owner) return loadUser(db, { id: owner.id }, viewerId);
  }
  const follow = self ? [] : (all[3] ?? []);
  const rel = self ? undefined : all[4]?.[0];
  return toUserJson([all[0], all[1], all[2]], viewerId, follow, rel);
}

function toUserJson(
  [rows, labels, types]: CountRows,
  viewerId: number | null,
  follow: unknown[],
  rel: { blocking: number; blockedBy: number; muting: number; staff: unknown; remoteUrl: string | null } | undefined,
): UserJson {
  const u = rows[0];
  // A suspended account is gone for everyone but moderators.
  if (!u || (u.suspendedAt && !rel?.staff)) throw notFound("User not found");
  const isMe = viewerId === u.id;
  const stats = jstats(u, isMe);
  // Across a block (either way) the person's folders and notes are not listed for the viewer, so
  // the filters that count them count nothing either.
  const cut = !!(rel?.blocking || rel?.blockedBy);
  const typeCounts = cut ? {} : toMap(types);
  const labelCounts = cut ? {} : toMap(labels);
  return {
    id: u.id,
    username: u.username,
    fullname: u.fullname,
    avatar: u.avatar,
    cover: u.cover,
    descr: u.descr,
    confirmed: u.confirmed,
    me: isMe,
    following: follow.length > 0,
    jstats: JSON.stringify(stats),
    jstype: JSON.stringify(typeCounts),
    jslabel: JSON.stringify(labelCounts),
    stats,
    types: typeCounts,
    labels: labelCounts,
    blocking: !!rel?.blocking,
    blocked_by: !!rel?.blockedBy,
    muting: !!rel?.muting,
    ...(rel?.remoteUrl ? { remote_url: rel.remoteUrl } : {}),
    ...(isMe ? { email: u.email, pending_email: u.pendingEmail, has_password: !!u.passwordHash, role: u.role } : {}),
  };
}

/** How long a renamed account's old username stays reserved for it (issue 21 item 16). */
export const RESERVE_MS = 30 * 24 * 3600 * 1000;
/**
 * How many former names an account keeps (redirecting and reserved): the newest ones. Without a
 * cap, renaming again and again would hold any number of names for 30 days each.
 */
export const FORMER_KEEP = 3;

/**
 * The Cache-Control of a 301 from a former name. Browsers keep a 301 without one for good, but
 * this one ends when someone claims the name: an hour at most.
 */
export const MOVED_CACHE = "max-age=3600";

/**
 * Whether `username` is held by someone other than `exceptId`, or given up by them less than 30
 * days ago (a rename): the old name is kept for its former owner a while, so their old links
 * cannot be taken over at once.
 */
export async function usernameTaken(db: DB, username: string, exceptId = 0): Promise<boolean> {
  const name = username.toLowerCase();
  const [held, reserved] = await db.batch([
    db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.username}) = ${name} and ${users.id} != ${exceptId}`)
      .limit(1),
    db
      .select({ id: formerUsernames.userId })
      .from(formerUsernames)
      .where(
        and(
          eq(formerUsernames.username, name),
          ne(formerUsernames.userId, exceptId),
          gt(formerUsernames.releasedAt, Date.now() - RESERVE_MS),
        ),
      )
      .limit(1),
  ]);
  return held.length > 0 || reserved.length > 0;
}

/** A name being taken (sign-up, rename) stops being anyone's former name: its redirect ends. */
export const claimName = (db: DB, username: string) =>
  db.delete(formerUsernames).where(eq(formerUsernames.username, username.toLowerCase()));

/**
 * The id of the account named `name` (any case), as SQL: a list asked for by username reads the
 * person's id inside its own statement (users_username_uq), so a profile asks for the person and
 * their list side by side, in one round trip. A name nobody holds matches nothing.
 */
export const idNamed = (name: unknown): SQL => sql`(select u.id from users u where lower(u.username) = lower(${name}))`;

/**
 * The account that gave up `username` and still has no one else holding it: its id and name now,
 * or null. A primary-key lookup; called only once nobody holds the name.
 */
export async function formerOwner(db: DB, username: string): Promise<{ id: number; username: string } | null> {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(formerUsernames)
    .innerJoin(users, eq(users.id, formerUsernames.userId))
    .where(
      and(
        eq(formerUsernames.username, username.toLowerCase()),
        isNull(users.suspendedAt),
        sql`not exists (select 1 from users h where lower(h.username) = ${username.toLowerCase()})`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function changeUsername(db: DB, uid: number, username: string): Promise<UserJson> {
  const [u] = await db.select({ username: users.username }).from(users).where(eq(users.id, uid));
  if (!u) throw notFound("User not found");
  if (u.username !== username) {
    if (await usernameTaken(db, username, uid)) throw new AppError(409, "username_taken", "username is taken");
    const old = u.username.toLowerCase();
    const now = Date.now();
    try {
      await db.batch([
        db.update(users).set({ username }).where(eq(users.id, uid)),
        // The old name now leads here (and is reserved for 30 days); the new one, if it was a
        // former name (this account's own, or one whose reservation ran out), leads nowhere else.
        db
          .insert(formerUsernames)
          .values({ username: old, userId: uid, releasedAt: now })
          .onConflictDoUpdate({ target: formerUsernames.username, set: { userId: uid, releasedAt: now } }),
        claimName(db, username),
        // Beyond the newest FORMER_KEEP, a former name is free again (at most FORMER_KEEP + 1 rows).
        db
          .delete(formerUsernames)
          .where(
            and(
              eq(formerUsernames.userId, uid),
              notInArray(
                formerUsernames.username,
                db
                  .select({ n: formerUsernames.username })
                  .from(formerUsernames)
                  .where(eq(formerUsernames.userId, uid))
                  .orderBy(desc(formerUsernames.releasedAt), desc(formerUsernames.username))
                  .limit(FORMER_KEEP),
              ),
            ),
          ),
      ]);
    } catch (e) {
      // A concurrent change won the unique index between the check and the write.
      if (String(e).includes("UNIQUE")) throw new AppError(409, "username_taken", "username is taken");
      throw e;
    }
  }
  return loadUser(db, { id: uid }, uid);
}
