import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { sign } from "hono/jwt";
import { eq, sql } from "drizzle-orm";
import { users } from "../db/schema/users";
import type { AppEnv, CurrentUser, Env, PendingSession } from "../env";
import { toErrorResponse, unauthorized } from "./errors";

export const SID_COOKIE = "notex_sid";
const SESSION_TTL_S = 60 * 60 * 24 * 30;
const TOKEN_TTL_S = 15 * 60;

interface SessionRecord {
  uid: number;
  ep: number;
  at: number;
}

function randomId(bytes = 32): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
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

/** A fresh session id on every login or signup (no fixation); returns the bearer token for it. */
export async function startSession(c: Context<AppEnv>, user: { id: number; sessionEpoch: number }) {
  const sid = randomId();
  const record: SessionRecord = { uid: user.id, ep: user.sessionEpoch, at: Date.now() };
  await c.env.SESSIONS.put(`s:${sid}`, JSON.stringify(record), { expirationTtl: SESSION_TTL_S });
  setCookie(c, SID_COOKIE, sid, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c.env),
    path: "/",
    maxAge: SESSION_TTL_S,
  });
  return { sid, token: await signToken(c.env, user.id, sid, user.sessionEpoch) };
}

export async function endSession(c: Context<AppEnv>) {
  const sid = getCookie(c, SID_COOKIE) ?? c.var.user?.sid;
  if (sid) await c.env.SESSIONS.delete(`s:${sid}`);
  deleteCookie(c, SID_COOKIE, { path: "/", secure: secure(c.env) });
}

async function readCookieSession(c: Context<AppEnv>): Promise<(SessionRecord & { sid: string }) | null> {
  const sid = getCookie(c, SID_COOKIE);
  if (!sid || sid.length > 100) return null;
  const raw = await c.env.SESSIONS.get(`s:${sid}`);
  if (!raw) return null;
  try {
    return { ...(JSON.parse(raw) as SessionRecord), sid };
  } catch {
    return null;
  }
}

/** The user behind a session, if its epoch is still current (password change and logout-everywhere bump it). */
async function current(c: Context<AppEnv>, uid: number, ep: number, sid: string): Promise<CurrentUser | null> {
  const [row] = await c.var.db
    .select({ id: users.id, username: users.username, ep: users.sessionEpoch })
    .from(users)
    .where(eq(users.id, uid))
    .limit(1);
  if (!row || row.ep !== ep) return null;
  return { id: row.id, username: row.username, sid };
}

/** GET /v1/refresh: a new bearer token from the cookie session, or null. */
export async function refreshFromCookie(c: Context<AppEnv>): Promise<string | null> {
  const s = await readCookieSession(c);
  if (!s) return null;
  const user = await current(c, s.uid, s.ep, s.sid);
  return user ? signToken(c.env, user.id, s.sid, s.ep) : null;
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
      const pending: PendingSession = { uid, ep, verified: false };
      c.set("user", { id: uid, username: "", sid });
      c.set("pendingSession", pending);
      await next();
      if (!pending.verified && !(await current(c, uid, ep, sid))) c.res = toErrorResponse(unauthorized(), c);
      return;
    }
    const user = await current(c, uid, ep, sid);
    if (!user) throw unauthorized();
    c.set("user", user);
  } else {
    const s = await readCookieSession(c);
    if (s) c.set("user", await current(c, s.uid, s.ep, s.sid));
  }
  await next();
};

/** The session behind a page request's cookie, checked once for the whole page (null: visitor). */
export async function pageUser(c: Context<AppEnv>): Promise<CurrentUser | null> {
  const s = await readCookieSession(c);
  return s ? current(c, s.uid, s.ep, s.sid) : null;
}

/** The reads whose queries can carry the session check: note lists and notifications. */
const RIDES = /^\/v1\/(discover|feeds|tags\/|labels\/|notifications$|bookmarks$|notes$|folders\/\d+\/notes$)/;

/** The reader's [session epoch, username] as a column of a list query, read in the same statement. */
export const sessionColumn = (uid: unknown) =>
  sql<string | null>`(select json_array(session_epoch, username) from users where id = ${uid})`.as("x_session");

export interface RideAlong {
  /** The reader, for sessionColumn(uid) in the list query. */
  uid: number;
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
