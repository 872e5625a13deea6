import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, generateCookie, getCookie, setCookie } from "hono/cookie";
import { sign } from "hono/jwt";
import { and, eq, gt, isNull, lt, type Placeholder, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { armGate } from "../db/meter";
import { namedObjects, type Plan, planOf, planValues } from "../db/plan";
import { sessions, users } from "../db/schema/users";
import type { AppEnv, CurrentUser, Env } from "../env";
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
const fromB64url = (s: string) => {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
};

// Tokens this isolate has already verified, with their claims: a client sends the same token on
// every request for its 15 minutes, and checking its HMAC again each time is CPU for nothing.
// Expiry is still checked on every use; a revoked session is caught by the epoch check, not here.
const VERIFIED_MAX = 1000;
const verified = new Map<string, Map<string, Record<string, unknown>>>(); // by secret, then token

/** An HS256 token's claims if its signature and expiry hold (the header must say HS256), else null. */
export async function verifyToken(secret: string, token: string): Promise<Record<string, unknown> | null> {
  let known = verified.get(secret);
  if (!known) {
    known = new Map();
    verified.set(secret, known);
  }
  const hit = known.get(token);
  if (hit) return inTime(hit) ? hit : null;
  const claims = await verifyFresh(secret, token);
  if (claims) {
    if (known.size >= VERIFIED_MAX) known.delete(known.keys().next().value as string);
    known.set(token, claims);
  }
  return claims;
}

/** Claims within their exp and nbf (seconds), now. */
function inTime(claims: Record<string, unknown>): boolean {
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== "number" || claims.exp <= now) return false;
  return !(typeof claims.nbf === "number" && claims.nbf > now);
}

async function verifyFresh(secret: string, token: string): Promise<Record<string, unknown> | null> {
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
    return inTime(claims) ? claims : null;
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
  // The account's id leads the secret (sessionSecretUid): a page can then build its reads for the
  // person before the session is checked, and the check rides with them (pageGate).
  const secret = `${user.id}.${randomToken()}`;
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
  const sid = (await cookieSid(c)) ?? c.var.user?.sid;
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

/**
 * The session row `sid` joined to its user (unexpired, and belonging to `uid` when given). With
 * `ep` it also holds the whole of `valid` in SQL (ep: a bearer token's epoch, or null for a cookie,
 * which carries none), so a row comes back exactly when the session passes: what a Gate's check
 * must be (db/meter.ts).
 */
const sessionQuery = (
  c: Context<AppEnv>,
  sid: string | Placeholder,
  now: number | Placeholder,
  uid?: number | Placeholder,
  ep?: number | Placeholder | null,
) =>
  c.var.db
    .select(sessionFields)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sid),
        gt(sessions.expiresAt, now),
        uid === undefined ? undefined : eq(users.id, uid),
        ep === undefined
          ? undefined
          : and(
              eq(sessions.ep, users.sessionEpoch),
              ep === null ? undefined : eq(users.sessionEpoch, ep),
              isNull(users.suspendedAt),
            ),
      ),
    )
    .limit(1);

/** sessionQuery for a page's session cookie, built once (sid, now and uid bound per request). */
const cookieSession = (c: Context<AppEnv>) =>
  planOf("session:cookie", () =>
    sessionQuery(c, sql.placeholder("sid"), sql.placeholder("now"), sql.placeholder("uid"), null),
  );

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
  if (!valid(row, ep)) return null;
  if (stale(row, now)) await touch(c, sid, now);
  return { id: row.uid, username: row.username, sid };
}

/** A session row that holds: the account's current epoch (and `ep` when given), not suspended. */
function valid(row: SessionRow | undefined, ep?: number): row is SessionRow {
  // Suspension also ends the sessions and bumps the epoch (so riding checks fail too); this holds even if it did not.
  return !!row && row.ep === row.userEp && (ep === undefined || ep === row.userEp) && !row.suspendedAt;
}
const stale = (row: SessionRow, now: number) => now - row.lastSeenAt > TOUCH_EVERY_MS;

/** sessionQuery for a bearer token, built once, for a Gate to carry (sid, now and uid bound per request). */
const bearerSession = (c: Context<AppEnv>) =>
  planOf("session:bearer", () =>
    sessionQuery(c, sql.placeholder("sid"), sql.placeholder("now"), sql.placeholder("uid"), sql.placeholder("ep")),
  );

/** The user behind session `sid` (see sessionQuery and settleSession), or null. One D1 query. */
async function current(c: Context<AppEnv>, sid: string, uid?: number, ep?: number): Promise<CurrentUser | null> {
  const now = Date.now();
  const [row]: SessionRow[] = await sessionQuery(c, sid, now, uid, ep);
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

/** The account id a session secret starts with (sessions started before it did: none). */
const SECRET_UID = /^([1-9]\d{0,14})\.[\w-]{43}$/;
export const sessionSecretUid = (secret: string): number | null => {
  const m = SECRET_UID.exec(secret);
  return m ? Number(m[1]) : null;
};

/**
 * A GET page's session, checked in the page's first D1 round trip instead of one of its own: the
 * cookie's secret names the account, so the page's reads are built for that person at once, and
 * the check (a Gate, db/meter.ts) leads their batch. Answers the provisional user (its username is
 * filled in when the check settles) and `passed`, which says whether the check held (running it
 * alone if nothing reached D1). Until it has held, nothing writes: a trip that may write waits for
 * it or carries it as a guard. Undefined when the cookie does not name an account (a session from
 * before, or none): then pageUser checks it first, as before.
 */
export async function pageGate(c: Context<AppEnv>) {
  const secret = cookieSecret(c);
  const uid = secret ? sessionSecretUid(secret) : null;
  if (!secret || !uid) return undefined;
  const user = { id: uid, username: "", sid: await hashSecret(secret) };
  const passed = armSession(c, cookieSession(c), user);
  return passed && { user, passed };
}

/**
 * Arms the check of `user`'s session (sid and id; a bearer token's epoch `ep` too) as a Gate on the
 * request's D1 (db/meter.ts): `plan` is sessionQuery for it, and `user` gets its username when the
 * check settles. Answers armGate's `passed`.
 */
function armSession(c: Context<AppEnv>, plan: Plan, user: CurrentUser & { sid: string }, ep?: number) {
  const now = Date.now();
  return armGate(c.env.DB, {
    sql: plan.text,
    params: planValues(plan, { sid: user.sid, now, uid: user.id, ep }),
    settle(rows) {
      const [row] = namedObjects<SessionRow>(plan, rows);
      if (!valid(row, ep)) throw unauthorized();
      user.username = row.username;
      if (stale(row, now)) void touch(c, user.sid, now);
    },
  });
}

/** `res`, dropping the cookie of a session that no longer holds (pageGate refused it). */
export function endStaleSession(c: Context<AppEnv>, res: Response): Response {
  const out = new Response(res.body, res);
  out.headers.append(
    "Set-Cookie",
    generateCookie(SID_COOKIE, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "Lax", secure: secure(c.env) }),
  );
  return out;
}

/** The session cookie's secret, if it may be one (no longer than 100 characters), or null. */
function cookieSecret(c: Context<AppEnv>): string | null {
  const secret = getCookie(c, SID_COOKIE);
  return secret && secret.length <= 100 ? secret : null;
}

/** The session id behind the request's cookie (the hash of its secret), or null. */
async function cookieSid(c: Context<AppEnv>): Promise<string | null> {
  const secret = cookieSecret(c);
  return secret ? hashSecret(secret) : null;
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
    // The epoch check rides in the request's first D1 read (one round trip fewer), and runs alone
    // before a first trip that may write, which waits for it (db/meter.ts, Gate). The username is
    // filled in when it settles.
    const user = { id: uid, username: "", sid };
    const passed = armSession(c, bearerSession(c), user, ep);
    if (!passed) {
      const checked = await current(c, sid, uid, ep);
      if (!checked) throw unauthorized();
      c.set("user", checked);
      return next();
    }
    c.set("user", user);
    await next();
    // A handler that never reached D1 (or caught the refusal) is answered here, before anything is sent.
    if (!(await passed())) c.res = toErrorResponse(unauthorized(), c);
    return;
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
