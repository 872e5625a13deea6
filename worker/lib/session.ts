// Who is asking: the notex_sid cookie (pages, the browser's own API calls) or a bearer token (the
// spec's API clients), both naming a sign-in session in KV (lib/sessions.ts). No session is read
// from D1: a signed-in request's D1 work is only its own data. A Mastodon app's access token is a
// session too, but it opens only the Mastodon API within its scopes (mastodon/tokens.ts): here,
// as a cookie or behind a web token, it names nobody.
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, generateCookie, getCookie, setCookie } from "hono/cookie";
import type { AppEnv, CurrentUser, Env } from "../env";
import { unauthorized } from "./errors";
import { later } from "./later";
import {
  COOKIE_SESSION_TTL_S,
  createSession,
  endSession,
  readSession,
  type Session,
  sessionById,
  touchSession,
  wantsTouch,
} from "./sessions";
import { asTheme, themeCookie } from "./theme";
import { signToken, verifyToken } from "./token";

export const SID_COOKIE = "notex_sid";

const secure = (env: Env) => env.APP_ENV !== "local";
const userOf = (s: Session): CurrentUser => ({ id: s.uid, sid: s.id, signedInAt: s.created });

/** A browser's session, or null: an app's token is never one, whatever door it is shown at. */
const web = (s: Session | null): Session | null => (s && !s.app ? s : null);

/**
 * A fresh session on every login or signup (no fixation): sets the cookie, answers the bearer
 * token. `theme`, the account's kept theme, becomes this browser's too: it follows the account.
 */
export async function startSession(c: Context<AppEnv>, uid: number, theme?: string) {
  const { secret, session } = await createSession(c.env.SESSIONS, uid, { device: c.req.header("user-agent") ?? "" });
  setCookie(c, SID_COOKIE, secret, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c.env),
    path: "/",
    maxAge: COOKIE_SESSION_TTL_S,
  });
  if (theme !== undefined) c.header("Set-Cookie", themeCookie(asTheme(theme), secure(c.env)), { append: true });
  return { sid: session.id, token: signToken(c.env.TOKEN_SECRET, uid, session.id) };
}

/** Logs out: ends the request's session (the cookie's, else the bearer token's) and drops the cookie. */
export async function endCurrentSession(c: Context<AppEnv>) {
  const secret = cookieSecret(c);
  const session = secret ? web(await readSession(c.env.SESSIONS, secret)) : null;
  const user = session ? userOf(session) : c.var.user;
  if (user) await endSession(c.env, user.id, user.sid);
  deleteCookie(c, SID_COOKIE, { path: "/", secure: secure(c.env) });
}

/** The session cookie's secret, if it may be one (no longer than 100 characters), or null. */
function cookieSecret(c: Context<AppEnv>): string | null {
  const secret = getCookie(c, SID_COOKIE);
  return secret && secret.length <= 100 ? secret : null;
}

/** The session, with "last active" moved forward after the response when it is due. */
function seen(c: Context<AppEnv>, session: Session | null): CurrentUser | null {
  if (!session) return null;
  if (wantsTouch(session)) void later(c, "session touch", () => touchSession(c.env.SESSIONS, session));
  return userOf(session);
}

/**
 * A page request's session (KV), read before any loader runs: `user` null is a visitor. `stale`:
 * the request carried a session cookie that names no live session (ended, expired or forged);
 * the page drops it (dropSessionCookie) so the next views are a visitor's without a lookup.
 */
export async function pageSession(c: Context<AppEnv>): Promise<{ user: CurrentUser | null; stale: boolean }> {
  const secret = cookieSecret(c);
  if (!secret) return { user: null, stale: getCookie(c, SID_COOKIE) !== undefined };
  const user = seen(c, web(await readSession(c.env.SESSIONS, secret)));
  return { user, stale: !user };
}

/** `res` with the session cookie removed. */
export function dropSessionCookie(c: Context<AppEnv>, res: Response): Response {
  const out = new Response(res.body, res);
  out.headers.append(
    "Set-Cookie",
    generateCookie(SID_COOKIE, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "Lax", secure: secure(c.env) }),
  );
  return out;
}

/** GET /v1/refresh: a new bearer token while the cookie's session lives, or null. */
export async function refreshFromCookie(c: Context<AppEnv>): Promise<string | null> {
  const secret = cookieSecret(c);
  const user = secret ? seen(c, web(await readSession(c.env.SESSIONS, secret))) : null;
  return user ? signToken(c.env.TOKEN_SECRET, user.id, user.sid) : null;
}

/**
 * The page's signed-in person, handed to the in-process API calls its loaders and actions make
 * (app/lib/api.server.ts), so none of them reads the session again. Keyed by the call's own
 * Request object, which only the page's code holds: nothing a client sends can name a user here.
 */
const pageUsers = new WeakMap<Request, CurrentUser | null>();

/** An in-process API request made on behalf of the page's signed-in person (or a visitor: null). */
export function pageRequest(input: RequestInfo | URL, init: RequestInit | undefined, user: CurrentUser | null) {
  const request = new Request(input, init);
  pageUsers.set(request, user);
  return request;
}

/**
 * Sets c.var.user from a bearer token or the session cookie. A presented but bad bearer token, or
 * one whose session has ended, is a 401 (the client refreshes once and retries); a stale cookie
 * just means "visitor".
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  // An in-process call from a page whose request already read its session.
  const pageUser = pageUsers.get(c.req.raw);
  if (pageUser !== undefined) {
    c.set("user", pageUser);
    return next();
  }
  c.set("user", null);
  const header = c.req.header("authorization");
  if (header?.startsWith("Bearer ")) {
    const named = verifyToken(c.env.TOKEN_SECRET, header.slice(7));
    const user = named && seen(c, web(await sessionById(c.env.SESSIONS, named.uid, named.sid)));
    if (!user) throw unauthorized();
    c.set("user", user);
  } else {
    const secret = cookieSecret(c);
    if (secret) c.set("user", seen(c, web(await readSession(c.env.SESSIONS, secret))));
  }
  await next();
};

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
