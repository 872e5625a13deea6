// Access tokens held by Mastodon apps. A person's token IS a sign-in session (lib/sessions.ts, in
// KV) carrying what the app was granted: stored hashed, listed in Settings beside the browsers,
// ended by Revoke, by a password change and by "log out everywhere" like every session. An app's
// own token (client_credentials) belongs to nobody, so it lives in D1 (oauth_tokens), hashed too,
// for APP_TOKEN_TTL_MS: an app asks for a new one when it needs one (the token endpoint has a budget).
import type { Context } from "hono";
import { and, eq, gt, inArray } from "drizzle-orm";
import { oauthApps, oauthCodes, oauthTokens } from "../../db/schema/oauth";
import type { AppEnv, DB, Env } from "../../env";
import { notFound } from "../../lib/errors";
import { later } from "../../lib/later";
import { hashSecret, randomToken } from "../../lib/secret";
import {
  createSession,
  endSession,
  endSessionOrApp,
  listSessions,
  readSession,
  secretUid,
  touchSession,
  wantsTouch,
} from "../../lib/sessions";

export interface TokenOwner {
  /** Null for an app-only token (client_credentials). */
  user: { id: number; sid: string } | null;
  app: { clientId: string; name: string };
  scopes: string[];
}

/** A person's token: a session for `uid` with the app's grant. Answers the bearer secret, shown once. */
export async function grantUserToken(env: Env, app: { clientId: string; name: string }, uid: number, scopes: string[]) {
  const { secret, session } = await createSession(env.SESSIONS, uid, { device: app.name, app: { ...app, scopes } });
  return { secret, createdAt: session.created };
}

/** How long an app's own token lives (Mastodon's never expire; nothing here needs one for longer). */
export const APP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** An app's own token (no person): a D1 row holding its hash, good for APP_TOKEN_TTL_MS. */
export async function grantAppToken(db: DB, appId: number, scopes: string[]) {
  const secret = randomToken();
  const now = Date.now();
  await db.insert(oauthTokens).values({ id: hashSecret(secret), appId, scopes: scopes.join(" "), createdAt: now });
  return { secret, createdAt: now, expiresIn: APP_TOKEN_TTL_MS / 1000 };
}

/**
 * Who a bearer secret speaks for, or null: unknown, ended, or not an app's. A person's token is read
 * from KV only, as /v1's sessions are (no D1 work before the request's own): suspending or deleting
 * an account ends all its sessions, app tokens with them.
 */
export async function readToken(c: Context<AppEnv>, secret: string): Promise<TokenOwner | null> {
  if (secret.length > 200) return null;
  if (secretUid(secret) !== null) {
    const session = await readSession(c.env.SESSIONS, secret);
    // A browser's session secret is not an app's token: cookies' sessions never work here.
    if (!session?.app) return null;
    if (wantsTouch(session)) later(c, "token touch", () => touchSession(c.env.SESSIONS, session));
    const { clientId, name, scopes } = session.app;
    return { user: { id: session.uid, sid: session.id }, app: { clientId, name }, scopes };
  }
  const [row] = await c.var.db
    .select({ scopes: oauthTokens.scopes, clientId: oauthApps.clientId, name: oauthApps.name })
    .from(oauthTokens)
    .innerJoin(oauthApps, eq(oauthApps.id, oauthTokens.appId))
    .where(and(eq(oauthTokens.id, hashSecret(secret)), gt(oauthTokens.createdAt, Date.now() - APP_TOKEN_TTL_MS)))
    .limit(1);
  return row ? { user: null, app: { clientId: row.clientId, name: row.name }, scopes: row.scopes.split(" ") } : null;
}

export interface AuthorisedApp {
  id: string;
  name: string;
  scopes: string[];
  created_at: number;
  last_used_at: number;
}

/** The apps a person has let in (newest first), for Settings → Authorised apps. */
export async function listTokens(env: Env, uid: number): Promise<AuthorisedApp[]> {
  return (await listSessions(env.SESSIONS, uid)).flatMap((s) =>
    s.app ? [{ id: s.id, name: s.app.name, scopes: s.app.scopes, created_at: s.created, last_used_at: s.seen }] : [],
  );
}

/**
 * Ends one of the person's sessions (the key names the account: another's is not found); for an
 * app's token, everything the person gave that app: its other tokens and codes not yet exchanged.
 */
export async function revokeSession(env: Env, db: DB, uid: number, id: string) {
  const { ended, app } = await endSessionOrApp(env, uid, id);
  if (app) {
    const appIds = db.select({ id: oauthApps.id }).from(oauthApps).where(eq(oauthApps.clientId, app.clientId));
    await db.delete(oauthCodes).where(and(eq(oauthCodes.userId, uid), inArray(oauthCodes.appId, appIds)));
  }
  return { ended };
}

/** Settings → Authorised apps: Revoke (404 when `id` is none of the person's sessions). */
export async function endToken(env: Env, db: DB, uid: number, id: string) {
  const res = await revokeSession(env, db, uid, id);
  if (!res.ended) throw notFound("App not found");
  return res;
}

/** RFC 7009: ends the token `secret` if the app `clientId` holds it; an unknown token is no error. */
export async function revokeSecret(env: Env, db: DB, app: { id: number; clientId: string }, secret: string) {
  if (secretUid(secret) !== null) {
    const session = await readSession(env.SESSIONS, secret);
    if (session?.app?.clientId === app.clientId) await endSession(env, session.uid, session.id);
    return;
  }
  await db.delete(oauthTokens).where(and(eq(oauthTokens.id, hashSecret(secret)), eq(oauthTokens.appId, app.id)));
}
