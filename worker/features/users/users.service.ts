import { and, desc, eq, gt, ne, notInArray, type SQL, sql } from "drizzle-orm";
import { formerUsernames, users } from "../../db/schema/users";
import { allOf, mapRead, type Read, readOne } from "../../db/reads";
import { formerOwnerRead, userRead } from "./users.read";
import type { DB } from "../../env";
import type { StoredLink } from "./profile.schema";
import { AppError, notFound } from "../../lib/errors";
import type { Theme } from "../../lib/theme";

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
  /** One line under the name ("Compiler engineer at Remington Rand") and where they are. */
  headline: string;
  location: string;
  /** Their links; verified_at once the page linked back with rel="me". */
  links: StoredLink[];
  confirmed: boolean;
  me: boolean;
  following: boolean;
  /** The viewer asked to follow this locked account elsewhere and waits for the answer. */
  requested: boolean;
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
  /** The account this one moved to (its username here: `name@host` when it lives elsewhere). */
  moved_to?: string;
  /** The account that moved here (verified by its Move), if one did. */
  moved_from?: string;
  /** Only on the viewer's own record: user, moderator or admin. */
  role?: string;
}

/**
 * One D1 round trip (users.read.ts): the user, their label and type counts, and whether the
 * viewer follows, blocks or mutes them.
 */
export async function loadUser(
  db: DB,
  where: { id?: number; username?: string },
  viewerId: number | null,
): Promise<UserJson> {
  const name = where.id === undefined ? (where.username ?? "") : null;
  const by = name === null ? { id: where.id ?? 0 } : { username: name };
  const found = await readOne(db, orFormer(userRead(db, by, viewerId), name, db));
  // A renamed account is found by its former name while nobody else holds it (issue 21 item 16):
  // the answer carries the name it has now, and pages under the old one redirect there.
  return "former" in found ? loadUser(db, { id: found.former.id }, viewerId) : found;
}

/**
 * `read` by a name, with the account that gave that name up asked for in the same trip: when no
 * one holds the name, the value is `{ former }` if a renamed account did, else the read's refusal.
 */
export function orFormer(
  read: Read<UserJson>,
  name: string | null,
  db: DB,
): Read<UserJson | { former: { id: number; username: string } }> {
  if (name === null) return read;
  const former = formerOwnerRead(db, name);
  return mapRead(allOf({ user: read, former }), ({ user, former }) => {
    if (user.ok) return user.data;
    if (former.ok && former.data) return { former: former.data };
    throw user.error;
  });
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
export const formerOwner = (db: DB, username: string) => readOne(db, formerOwnerRead(db, username));

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

/** Keeps the person's colour theme on the account: each later sign-in starts with it (lib/session.ts). */
export async function saveTheme(db: DB, uid: number, theme: Theme) {
  await db.update(users).set({ theme }).where(eq(users.id, uid));
}
