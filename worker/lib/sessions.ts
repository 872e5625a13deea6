// Sign-in sessions, kept in Workers KV (binding SESSIONS). A session is created for an account and
// answers a secret: the value of the notex_sid cookie, or an opaque bearer token handed to an app
// (a Mastodon client's access token). The secret is `<account id>.<256 random bits>` and is never
// stored: the session's id is the SHA-256 of it, and its key is
//
//   session:<account id>:<id>   the record (JSON value, and the same as metadata so a list shows it)
//   seen:<account id>:<id>      "last active", written at most every TOUCH_EVERY_MS
//
// The account id in the key makes `session:<account id>:` the account's index: Settings lists it,
// and revocation deletes everything under it. "Last active" has a key of its own because a write
// to the record could bring back a session that was deleted between the read and the write; a
// stray `seen:` key is harmless (nothing reads it without its record) and expires with it.
//
// Revocation deletes keys. It is immediate where it happened; KV serves other locations from a
// cache for up to ~60 s (SECURITY.md says why that is accepted).
import type { Env } from "../env";
import { hubOf } from "../features/live/shards";
import { hashSecret, randomToken } from "./secret";

/** A browser's session lasts this long from sign-in (the cookie's Max-Age says the same). */
export const COOKIE_SESSION_TTL_S = 60 * 60 * 24 * 30;
/** "Last active" is written at most this often per session (a read path must not write each time). */
export const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** What an app was granted, for a session that is an app's access token (OAuth). */
export interface AppGrant {
  clientId: string;
  name: string;
  scopes: string[];
}

export interface Session {
  /** SHA-256 of the secret: what lists show, bearer tokens name and revocation takes. */
  id: string;
  uid: number;
  /** ms since the epoch. */
  created: number;
  /** Last active (ms); equals created until the first touch. */
  seen: number;
  /** The user agent that signed in (at most 300 characters). */
  device: string;
  /** ms since the epoch; null: until revoked (an app's token, as Mastodon's never expire). */
  expires: number | null;
  app?: AppGrant;
}

/** What the record key holds (the id and account are in the key itself). */
type Stored = Pick<Session, "created" | "device" | "expires" | "app">;

const recordKey = (uid: number, id: string) => `session:${uid}:${id}`;
const seenKey = (uid: number, id: string) => `seen:${uid}:${id}`;
const accountPrefix = (uid: number) => `session:${uid}:`;
/** The session id at the end of a key. */
const idOf = (key: string) => key.slice(key.lastIndexOf(":") + 1);

// Anything else is not one of ours and costs no KV read.
const SECRET = /^([1-9]\d{0,14})\.[\w-]{43}$/;
const ID = /^[\w-]{43}$/;

/** The account id a secret names, or null when it cannot be a session secret at all. */
export function secretUid(secret: string): number | null {
  const m = SECRET.exec(secret);
  return m ? Number(m[1]) : null;
}

/**
 * A new session for account `uid`: a browser's (30 days) or, with `app`, an app's access token
 * (no expiry: until the person or the app revokes it). Answers the secret, to be given to the
 * client once, and the session.
 */
export async function createSession(
  kv: KVNamespace,
  uid: number,
  opts: { device: string; app?: AppGrant },
): Promise<{ secret: string; session: Session }> {
  const secret = `${uid}.${randomToken()}`;
  const now = Date.now();
  const stored: Stored = {
    created: now,
    device: opts.device.slice(0, 300),
    expires: opts.app ? null : now + COOKIE_SESSION_TTL_S * 1000,
    ...(opts.app ? { app: opts.app } : {}),
  };
  const id = hashSecret(secret);
  await kv.put(recordKey(uid, id), JSON.stringify(stored), {
    metadata: stored,
    ...(opts.app ? {} : { expirationTtl: COOKIE_SESSION_TTL_S }),
  });
  return { secret, session: { id, uid, seen: now, ...stored } };
}

/** The live session behind `secret`, or null (wrong shape: no KV read; unknown, ended or expired). */
export async function readSession(kv: KVNamespace, secret: string): Promise<Session | null> {
  const uid = secretUid(secret);
  return uid === null ? null : sessionById(kv, uid, hashSecret(secret));
}

/** Account `uid`'s live session `id` (what a bearer token names), or null. */
export async function sessionById(kv: KVNamespace, uid: number, id: string): Promise<Session | null> {
  if (!ID.test(id)) return null;
  // Both keys in one KV call (every signed-in request makes it): the record, and "last active" (a number).
  const got = await kv.get<Stored | number>([recordKey(uid, id), seenKey(uid, id)], "json");
  const stored = got.get(recordKey(uid, id)) as Stored | null;
  if (!stored || !live(stored, Date.now())) return null;
  return { id, uid, seen: Number(got.get(seenKey(uid, id))) || stored.created, ...stored };
}

const live = (s: Stored, now: number) => s.expires === null || s.expires > now;

/** Whether "last active" is old enough to be written again. */
export const wantsTouch = (s: Session, now = Date.now()) => now - s.seen > TOUCH_EVERY_MS;

/** Writes "last active" = now; it expires with the session. */
export async function touchSession(kv: KVNamespace, s: Session, now = Date.now()): Promise<void> {
  // KV refuses an expiration less than 60 s away; a session that close to its end is not worth it.
  if (s.expires !== null && s.expires - now < 120_000) return;
  await kv.put(seenKey(s.uid, s.id), String(now), {
    metadata: { t: now },
    ...(s.expires === null ? {} : { expiration: Math.floor(s.expires / 1000) }),
  });
}

/** Every KV key under `prefix` with its metadata (KV lists 1000 at a time). */
async function listAll<M>(kv: KVNamespace, prefix: string) {
  const keys: { name: string; metadata?: M }[] = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<M, string> = await kv.list<M>({ prefix, cursor });
    keys.push(...page.keys);
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

/** Account `uid`'s live sessions, newest first. */
export async function listSessions(kv: KVNamespace, uid: number): Promise<Session[]> {
  const [records, seen] = await Promise.all([
    listAll<Stored>(kv, accountPrefix(uid)),
    listAll<{ t: number }>(kv, `seen:${uid}:`),
  ]);
  const now = Date.now();
  const seenAt = new Map(seen.map((k) => [idOf(k.name), k.metadata?.t ?? 0]));
  return records
    .filter((k): k is { name: string; metadata: Stored } => !!k.metadata && live(k.metadata, now))
    .map((k) => {
      const id = idOf(k.name);
      return { id, uid, seen: seenAt.get(id) || k.metadata.created, ...k.metadata };
    })
    .sort((a, b) => b.created - a.created);
}

/** Where sessions end: the KV that keeps them, and the live hubs holding the sockets they opened. */
export type SessionStore = Pick<Env, "SESSIONS" | "LIVE">;

/**
 * Ends sessions `ids` of account `uid`: their keys go, and the person's live hub closes the sockets
 * they opened (a revoked token stops streaming now). A hub that cannot be reached is logged, not
 * fatal: the session has ended all the same, and the hub's own periodic check closes the rest.
 */
async function endIds(store: SessionStore, uid: number, ids: string[]) {
  const kv = store.SESSIONS;
  await Promise.all(ids.flatMap((id) => [kv.delete(recordKey(uid, id)), kv.delete(seenKey(uid, id))]));
  if (store.LIVE && ids.length)
    await hubOf(store, uid)
      .closeSessions(ids)
      .catch((e: unknown) => console.error("live.close", (e as Error)?.message ?? e));
}

/** Ends account `uid`'s session `id`; answers whether there was one. */
export async function endSession(store: SessionStore, uid: number, id: string): Promise<boolean> {
  if (!ID.test(id)) return false;
  const existed = (await store.SESSIONS.get(recordKey(uid, id))) !== null;
  await endIds(store, uid, [id]);
  return existed;
}

/**
 * Ends account `uid`'s session `id` as Settings does: a browser's alone; an app's together with
 * every other token the person gave that app (revoking an app takes back all it holds). Answers
 * how many ended (0: no such session) and the app, if it was one.
 */
export async function endSessionOrApp(
  store: SessionStore,
  uid: number,
  id: string,
): Promise<{ ended: number; app: AppGrant | null }> {
  const kv = store.SESSIONS;
  const stored = ID.test(id) ? await kv.get<Stored>(recordKey(uid, id), "json") : null;
  if (!stored) return { ended: 0, app: null };
  const app = stored.app ?? null;
  const siblings = app
    ? (await listAll<Stored>(kv, accountPrefix(uid)))
        .filter((k) => k.metadata?.app?.clientId === app.clientId)
        .map((k) => idOf(k.name))
    : [];
  const ids = [...new Set([id, ...siblings])];
  await endIds(store, uid, ids);
  return { ended: ids.length, app };
}

/**
 * Ends every session of account `uid` (browsers and apps), but `keep` when given (the session
 * making the request). Answers how many ended.
 */
export async function endAllSessions(store: SessionStore, uid: number, keep?: string): Promise<number> {
  const ids = (await listAll<Stored>(store.SESSIONS, accountPrefix(uid)))
    .map((k) => idOf(k.name))
    .filter((id) => id !== keep);
  await endIds(store, uid, ids);
  return ids.length;
}
