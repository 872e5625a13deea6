import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sign } from "hono/jwt";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { sessions, users } from "../db/schema/users";
import type { AppEnv, CurrentUser, Env, PendingSession } from "../env";
import { toErrorResponse, unauthorized } from "./errors";
import { later } from "./later";

export const SID_COOKIE = "notex_sid";
const SESSION_TTL_S = 60 * 60 * 24 * 30;
const TOKEN_TTL_S = 15 * 60;
/** "Last active" is written at most this often per session (a read path must not write each time). */
export const TOUCH_EVERY_MS = 5 * 60 * 1000;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** A 256-bit random secret, URL-safe. */
export function randomToken(bytes = 32): string {
  return b64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a secret, URL-safe: what D1 keeps instead of session cookies and emailed tokens. */
export async function hashSecret(secret: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret))));
}
const secure = (env: Env) => env.APP_ENV !== "local";

// The HMAC key for TOKEN_SECRET, imported once per isolate: every bearer request verifies with it.
const keys = new Map<string, Promise<CryptoKey>>();
const hmacKey = (secret: string) => {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
};
const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0));

/** An HS256 token's claims if its signature and expiry hold (the header must say HS256), else null. */
export async function verifyToken(secret: string, token: string): Promise<Record<string, unknown> | null> {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  try {
    const header = JSON.parse(new TextDecoder().decode(fromB64url(parts[0])));
    if (header.alg !== "HS256") return null;
    const ok = await crypto.subtle.verify(
      "HMAC",
      await hmacKey(secret),
      fromB64url(parts[2]),
      new TextEncoder().encode(`${parts[0]}.${parts[1]}`),
    );
    if (!ok) return null;
    const claims = JSON.parse(new TextDecoder().decode(fromB64url(parts[1])));
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== "number" || claims.exp <= now) return null;
    if (typeof claims.nbf === "number" && claims.nbf > now) return null;
    return claims;
  } catch {
    return null;
  }
}

export async function signToken(env: Env, uid: number, sid: string, ep: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return sign({ sub: uid, sid, ep, iat: now, exp: now + TOKEN_TTL_S }, env.TOKEN_SECRET, "HS256");
}

/** A fresh session on every login or signup (no fixation); returns the bearer token for it. */
export async function startSession(c: Context<AppEnv>, user: { id: number; sessionEpoch: number }) {
  const secret = randomToken();
  const sid = await hashSecret(secret);
  const now = Date.now();
  await c.var.db.batch([
    c.var.db.insert(sessions).values({
      id: sid,
      userId: user.id,
      ep: user.sessionEpoch,
      userAgent: (c.req.header("user-agent") ?? "").slice(0, 300),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + SESSION_TTL_S * 1000,
    }),
    // Bounded housekeeping: this account's own expired sessions go when a new one starts.
    c.var.db.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, now))),
  ]);
  setCookie(c, SID_COOKIE, secret, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c.env),
    path: "/",
    maxAge: SESSION_TTL_S,
  });
  return { sid, token: await signToken(c.env, user.id, sid, user.sessionEpoch) };
}

export async function endSession(c: Context<AppEnv>) {
  const secret = getCookie(c, SID_COOKIE);
  const sid = secret && secret.length <= 100 ? await hashSecret(secret) : c.var.user?.sid;
  if (sid) await c.var.db.delete(sessions).where(eq(sessions.id, sid));
  deleteCookie(c, SID_COOKIE, { path: "/", secure: secure(c.env) });
}

interface SessionRow {
  uid: number;
  username: string;
  userEp: number;
  ep: number;
  lastSeenAt: number;
  suspendedAt: number | null;
}

const sessionFields = {
  uid: users.id,
  username: users.username,
  userEp: users.sessionEpoch,
  ep: sessions.ep,
  lastSeenAt: sessions.lastSeenAt,
  suspendedAt: users.suspendedAt,
};

/** The session row `sid` joined to its user (unexpired, and belonging to `uid` when given). */
const sessionQuery = (c: Context<AppEnv>, sid: string, now: number, uid?: number) =>
  c.var.db
    .select(sessionFields)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sid), gt(sessions.expiresAt, now), uid === undefined ? undefined : eq(users.id, uid)))
    .limit(1);

/**
 * The user of a session row, if it carries the account's current epoch (password change, reset
 * and logout-everywhere bump it) and `ep` when given; refreshes "last active" when that is older
 * than TOUCH_EVERY_MS.
 */
async function settleSession(
  c: Context<AppEnv>,
  row: SessionRow | undefined,
  sid: string,
  now: number,
  ep?: number,
): Promise<CurrentUser | null> {
  // Suspension also ends the sessions and bumps the epoch (so riding checks fail too); this holds even if it did not.
  if (!row || row.ep !== row.userEp || (ep !== undefined && ep !== row.userEp) || row.suspendedAt) return null;
  if (now - row.lastSeenAt > TOUCH_EVERY_MS) await touch(c, sid, now);
  return { id: row.uid, username: row.username, sid };
}

/** The user behind session `sid` (see sessionQuery and settleSession), or null. One D1 query. */
async function current(c: Context<AppEnv>, sid: string, uid?: number, ep?: number): Promise<CurrentUser | null> {
  const now = Date.now();
  const [row]: SessionRow[] = await sessionQuery(c, sid, now, uid);
  return settleSession(c, row, sid, now, ep);
}

/** Moves "last active" forward, after the response; the where clause keeps racing writes to one. */
const touch = (c: Context<AppEnv>, sid: string, now: number) =>
  later(c, "session touch", () =>
    c.var.db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sid), lt(sessions.lastSeenAt, now - TOUCH_EVERY_MS)))
      .run(),
  );

/** The session id behind the request's cookie (the hash of its secret), or null. */
async function cookieSid(c: Context<AppEnv>): Promise<string | null> {
  const secret = getCookie(c, SID_COOKIE);
  if (!secret || secret.length > 100) return null;
  return hashSecret(secret);
}

/** GET /v1/refresh: a new bearer token from the cookie session, or null. */
export async function refreshFromCookie(c: Context<AppEnv>): Promise<string | null> {
  const sid = await cookieSid(c);
  const user = sid ? await current(c, sid) : null;
  if (!sid || !user) return null;
  const [row] = await c.var.db.select({ ep: users.sessionEpoch }).from(users).where(eq(users.id, user.id));
  return row ? signToken(c.env, user.id, sid, row.ep) : null;
}

/**
 * Sets c.var.user from a bearer token or the session cookie. A presented but bad bearer token is a
 * 401 (the client refreshes once and retries); a stale cookie just means "visitor".
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  // An in-process call from a page whose request already resolved (and epoch-checked) its session.
  if (c.env.PAGE_USER !== undefined) {
    c.set("user", c.env.PAGE_USER);
    return next();
  }
  c.set("user", null);
  const header = c.req.header("authorization");
  if (header?.startsWith("Bearer ")) {
    const claims = await verifyToken(c.env.TOKEN_SECRET, header.slice(7));
    if (!claims) throw unauthorized();
    const [uid, ep, sid] = [Number(claims.sub), Number(claims.ep), String(claims.sid)];
    if (c.req.method === "GET" && RIDES.test(c.req.path)) {
      // A read: its list query carries the epoch check (rideAlong), one D1 round trip fewer. If the
      // handler did not settle it (an empty page, an error), it runs here, before anything is sent.
      const pending: PendingSession = { uid, ep, sid, verified: false };
      c.set("user", { id: uid, username: "", sid });
      c.set("pendingSession", pending);
      await next();
      if (!pending.verified && !(await current(c, sid, uid, ep))) c.res = toErrorResponse(unauthorized(), c);
      return;
    }
    const user = await current(c, sid, uid, ep);
    if (!user) throw unauthorized();
    c.set("user", user);
  } else {
    const sid = await cookieSid(c);
    if (sid) c.set("user", await current(c, sid));
  }
  await next();
};

/**
 * The session behind a page request's cookie, checked once for the whole page (user null: visitor).
 * `also` puts more reads in the same D1 round trip (a GET page's own record); their results come
 * back with the user, and are to be trusted only when the user is not null.
 */
export async function pageUser(
  c: Context<AppEnv>,
  also?: (sid: string) => readonly BatchItem<"sqlite">[],
): Promise<{ user: CurrentUser | null; also: unknown[] }> {
  const sid = await cookieSid(c);
  if (!sid) return { user: null, also: [] };
  if (!also) return { user: await current(c, sid), also: [] };
  const now = Date.now();
  const [rows, ...more] = await c.var.db.batch([sessionQuery(c, sid, now), ...also(sid)]);
  return { user: await settleSession(c, (rows as SessionRow[])[0], sid, now), also: more };
}

/** The reads whose queries can carry the session check: note lists and notifications. */
const RIDES = /^\/v1\/(discover|feeds|tags\/|labels\/|notifications$|bookmarks$|notes$|folders\/\d+\/notes$|search$)/;

/**
 * The reader's [session epoch, username] as a column of a list query, read in the same statement;
 * null when the session has ended (its row is gone), which settles as a 401.
 */
export const sessionColumn = (uid: unknown, sid: unknown) =>
  sql<
    string | null
  >`(select json_array(u.session_epoch, u.username) from sessions s join users u on u.id = s.user_id where s.id = ${sid} and u.id = ${uid} and s.ep = u.session_epoch)`.as(
    "x_session",
  );

export interface RideAlong {
  /** The reader and their session, for sessionColumn(uid, sid) in the list query. */
  uid: number;
  sid: string;
  /** Checks that column's value from the first row; a stale epoch is a 401, as a separate check would be. */
  settle(value: string | null): void;
}

/** The pending epoch check of a bearer read, for its list query to carry; undefined if none is pending. */
export function rideAlong(c: Context<AppEnv>): RideAlong | undefined {
  const pending = c.var.pendingSession;
  const user = c.var.user;
  if (!pending || pending.verified || !user) return undefined;
  return {
    uid: pending.uid,
    sid: pending.sid,
    settle(value) {
      const [ep, username] = value ? (JSON.parse(value) as [number, string]) : [null, ""];
      if (ep !== pending.ep) throw unauthorized();
      pending.verified = true;
      user.username = username;
    },
  };
}

export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) throw unauthorized();
  await next();
};

/** The signed-in user, for handlers behind requireUser. */
export function me(c: Context<AppEnv>): CurrentUser {
  const user = c.var.user;
  if (!user) throw unauthorized();
  return user;
}
