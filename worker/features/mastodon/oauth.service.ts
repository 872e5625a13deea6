// Apps and OAuth 2 for Mastodon clients (RFC 6749 with RFC 9700's advice): exact redirect URIs,
// one-time codes kept hashed for minutes, PKCE S256, no password grant.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, eq, getTableColumns, isNull, lt } from "drizzle-orm";
import { z } from "zod";
import { oauthApps, oauthCodes } from "../../db/schema/oauth";
import type { DB, Env } from "../../env";
import { AppError } from "../../lib/errors";
import { hashSecret, randomToken } from "../../lib/secret";
import { describeScope, parseScopes, within } from "./scopes";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { known, mapRead, type Read, readOne } from "../../db/reads";
import { grantAppToken, grantUserToken } from "./tokens";

export const OOB = "urn:ietf:wg:oauth:2.0:oob";
const CODE_TTL_MS = 10 * 60 * 1000;

type AppRow = typeof oauthApps.$inferSelect;

/** Mastodon's error shape with OAuth's codes (`invalid_grant`, ...) where RFC 6749 names one. */
export const oauthError = (status: 400 | 401 | 403 | 422, error: string, description: string) =>
  new AppError(status, error, description);

const list = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v.join("\n") : v));

export const AppInput = z.object({
  client_name: z.string({ error: "client_name can't be blank" }).trim().min(1, "client_name can't be blank").max(100),
  redirect_uris: list,
  scopes: z.string().max(1000).optional(),
  website: z.string().max(500).optional().nullable(),
});

/** A redirect URI an app may register: the out-of-band one, or an absolute URI without a fragment. */
function validRedirect(uri: string): boolean {
  if (uri === OOB) return true;
  if (uri.length > 2000 || uri.includes("#")) return false;
  try {
    const u = new URL(uri);
    // Native apps use their own schemes (RFC 8252); javascript:, data: and the like are never a redirect.
    return !["javascript:", "data:", "vbscript:", "file:"].includes(u.protocol);
  } catch {
    return false;
  }
}

const appJson = (a: AppRow) => ({
  id: String(a.id),
  name: a.name,
  website: a.website,
  scopes: a.scopes.split(" "),
  redirect_uri: a.redirectUris.split("\n").join("\n"),
  redirect_uris: a.redirectUris.split("\n"),
  vapid_key: "",
});

export async function createApp(db: DB, input: z.output<typeof AppInput>) {
  const uris = input.redirect_uris
    .split(/\s*\n\s*/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!uris.length || uris.length > 10 || !uris.every(validRedirect))
    throw oauthError(422, "invalid_redirect_uri", "Validation failed: Redirect URI must be an absolute URI.");
  const { scopes, unknown } = parseScopes(input.scopes);
  if (unknown.length)
    throw oauthError(422, "invalid_scope", `Validation failed: Scopes are not valid: ${unknown.join(", ")}`);
  const clientId = randomToken();
  const clientSecret = randomToken();
  const [row] = await db
    .insert(oauthApps)
    .values({
      clientId,
      secretHash: await hashSecret(clientSecret),
      name: input.client_name,
      website: input.website?.trim() || null,
      redirectUris: uris.join("\n"),
      scopes: scopes.join(" "),
    })
    .returning();
  return { ...appJson(row), client_id: clientId, client_secret: clientSecret, client_secret_expires_at: 0 };
}

export const appJsonOf = appJson;

/** The app registered as `clientId`, as a read: one statement, none for an id no app can have. */
function appRead(db: DB, clientId: string | undefined): Read<AppRow | null> {
  if (!clientId || clientId.length > 100) return known(null);
  const plan = planFrom(
    db.select(getTableColumns(oauthApps)).from(oauthApps).where(eq(oauthApps.clientId, clientId)).limit(1),
  );
  return { statements: [bindPlan(db, plan, {})], value: ([r]) => namedObjects<AppRow>(plan, r.results)[0] ?? null };
}

export const appByClientId = (db: DB, clientId: string | undefined) => readOne(db, appRead(db, clientId));

/** The app that `clientId` and `secret` authenticate, or 401 invalid_client. */
export async function authenticateClient(db: DB, clientId?: string, secret?: string): Promise<AppRow> {
  const app = await appByClientId(db, clientId);
  if (!app || !secret || (await hashSecret(secret)) !== app.secretHash)
    throw oauthError(
      401,
      "invalid_client",
      "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
    );
  return app;
}

export const AuthorizeQuery = z.object({
  client_id: z.string().max(100).default(""),
  redirect_uri: z.string().max(2000).default(""),
  response_type: z.string().max(50).default(""),
  scope: z.string().max(1000).optional(),
  state: z.string().max(1000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
});
export type AuthorizeRequest = z.output<typeof AuthorizeQuery>;

/**
 * What the consent page shows, once the request is checked: an unknown app or a redirect URI it did
 * not register is never redirected to (the page says so instead); other errors are.
 */
export const authorizeRead = (db: DB, q: AuthorizeRequest) =>
  mapRead(appRead(db, q.client_id), (app) => checked(app, q));

export const checkAuthorize = (db: DB, q: AuthorizeRequest) => readOne(db, authorizeRead(db, q));

/** The consent page's words for a checked request: the app, what each scope allows, where it returns. */
export const consentRead = (db: DB, q: AuthorizeRequest) =>
  mapRead(authorizeRead(db, q), ({ app, scopes, redirectUri }) => ({
    app: { name: app.name, website: app.website },
    scopes: scopes.map((s) => ({ scope: s, text: describeScope(s) })),
    redirect_uri: redirectUri,
    out_of_band: redirectTo(redirectUri, {}) === null,
  }));

function checked(app: AppRow | null, q: AuthorizeRequest) {
  if (!app) throw oauthError(400, "invalid_client", "The app asking to sign in is not known to NoteX.");
  if (!app.redirectUris.split("\n").includes(q.redirect_uri))
    throw oauthError(400, "invalid_redirect_uri", "The redirect URI does not match one the app registered.");
  if (q.response_type !== "code")
    throw oauthError(400, "unsupported_response_type", "Only response_type=code is supported.");
  const { scopes, unknown } = parseScopes(q.scope, app.scopes.split(" ")[0]);
  if (unknown.length || !within(app.scopes.split(" "), scopes))
    throw oauthError(400, "invalid_scope", "The requested scope is invalid, unknown, or malformed.");
  if (q.code_challenge !== undefined || q.code_challenge_method !== undefined) {
    if (q.code_challenge_method !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge ?? ""))
      throw oauthError(400, "invalid_request", "PKCE needs code_challenge_method=S256 and a 43-character challenge.");
  }
  return { app: { name: app.name, website: app.website, id: app.id }, scopes, redirectUri: q.redirect_uri };
}

/** The person said yes: a one-time code, and where to send it. */
export async function approve(db: DB, uid: number, q: AuthorizeRequest) {
  const { app, scopes, redirectUri } = await checkAuthorize(db, q);
  const code = randomToken();
  const now = Date.now();
  await db.batch([
    db.insert(oauthCodes).values({
      id: await hashSecret(code),
      appId: app.id,
      userId: uid,
      redirectUri,
      scopes: scopes.join(" "),
      challenge: q.code_challenge ?? "",
      expiresAt: now + CODE_TTL_MS,
      createdAt: now,
    }),
    // Bounded housekeeping: this person's codes that were never spent go when a new one is made.
    db.delete(oauthCodes).where(and(eq(oauthCodes.userId, uid), lt(oauthCodes.expiresAt, now))),
    // A person authorised it: the app is in use, never removed as an unused registration.
    db
      .update(oauthApps)
      .set({ usedAt: now })
      .where(and(eq(oauthApps.id, app.id), isNull(oauthApps.usedAt))),
  ]);
  return { code, redirect: redirectTo(redirectUri, { code, state: q.state }) };
}

/** The redirect URI with the answer's parameters added (none for out-of-band: the page shows the code). */
export function redirectTo(uri: string, params: Record<string, string | undefined>): string | null {
  if (uri === OOB) return null;
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

export const TokenInput = z.object({
  grant_type: z.string().max(100).default(""),
  code: z.string().max(200).optional(),
  redirect_uri: z.string().max(2000).optional(),
  client_id: z.string().max(100).optional(),
  client_secret: z.string().max(200).optional(),
  code_verifier: z.string().max(200).optional(),
  scope: z.string().max(1000).optional(),
});

const invalidGrant = () =>
  oauthError(
    400,
    "invalid_grant",
    "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
  );

/** POST /oauth/token: authorization_code (with PKCE when the code has a challenge) or client_credentials. */
export async function exchange(env: Env, db: DB, input: z.output<typeof TokenInput>) {
  if (input.grant_type !== "authorization_code" && input.grant_type !== "client_credentials")
    throw oauthError(
      400,
      "unsupported_grant_type",
      "The authorization grant type is not supported by the authorization server.",
    );
  const app = await authenticateClient(db, input.client_id, input.client_secret);
  if (input.grant_type === "client_credentials") {
    const { scopes, unknown } = parseScopes(input.scope, "read");
    if (unknown.length || !within(app.scopes.split(" "), scopes))
      throw oauthError(400, "invalid_scope", "The requested scope is invalid, unknown, or malformed.");
    return tokenJson(await grantAppToken(db, app.id, scopes), scopes);
  }
  // The code is spent by the delete that reads it: a second use (or a race) finds nothing.
  const [code] = await db
    .delete(oauthCodes)
    .where(and(eq(oauthCodes.id, await hashSecret(input.code ?? "")), eq(oauthCodes.appId, app.id)))
    .returning();
  if (!code || code.expiresAt <= Date.now() || code.redirectUri !== input.redirect_uri) throw invalidGrant();
  if (code.challenge) {
    const verifier = input.code_verifier ?? "";
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) throw invalidGrant();
    const digest = encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
    if (digest !== code.challenge) throw invalidGrant();
  }
  const scopes = code.scopes.split(" ");
  return tokenJson(await grantUserToken(env, { clientId: app.clientId, name: app.name }, code.userId, scopes), scopes);
}

const tokenJson = (t: { secret: string; createdAt: number; expiresIn?: number }, scopes: string[]) => ({
  access_token: t.secret,
  token_type: "Bearer",
  scope: scopes.join(" "),
  created_at: Math.floor(t.createdAt / 1000),
  // RFC 6749 5.1: only an app's own token expires; a person's lives until revoked, as on Mastodon.
  ...(t.expiresIn ? { expires_in: t.expiresIn } : {}),
});
