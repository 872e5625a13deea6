import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from "arctic";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import { verifyWithJwks } from "hono/jwt";
import { runNamed } from "../../db/client";
import { users } from "../../db/schema/users";
import type { AppEnv, DB, Env } from "../../env";
import { AppError } from "../../lib/errors";
import { timingSafeEqual } from "../../lib/password";
import { capitalise, RESERVED, Username } from "../users/users.schema";
import { claimName, usernameTaken } from "../users/users.service";

// Google sign-in: authorization code flow with PKCE and state (spec 1, 7). Endpoints come from
// config, so local runs and tests talk to a real OpenID provider on 127.0.0.1 instead of Google.

export const GOOGLE_COOKIE = "notex_g";
const FLOW_TTL_S = 10 * 60;
export const GOOGLE_FAILED = "Something went wrong, please try again!";

/** Every failure ends in the same dialog; the code says which check refused, for logs and tests. */
export const googleFailed = (code: string, status: 400 | 401 | 409 = 401) =>
  new AppError(status, `google_${code}`, GOOGLE_FAILED);

const redirectUri = (c: Context<AppEnv>) => `${new URL(c.req.url).origin}/callback/google`;

function client(c: Context<AppEnv>) {
  const { GOOGLE_CLIENT_ID: id, GOOGLE_CLIENT_SECRET: secret } = c.env;
  if (!id || !secret) throw googleFailed("not_configured", 400);
  return new OAuth2Client(id, secret, redirectUri(c));
}

const cookieOptions = (env: Env) => ({
  httpOnly: true,
  sameSite: "Lax" as const,
  secure: env.APP_ENV !== "local",
  path: "/",
});

/** Starts the flow: state and verifier go into a short-lived signed cookie; the provider gets the challenge. */
export async function startGoogle(c: Context<AppEnv>): Promise<URL> {
  const oauth = client(c);
  const state = generateState();
  const verifier = generateCodeVerifier();
  const expires = Math.floor(Date.now() / 1000) + FLOW_TTL_S;
  await setSignedCookie(c, GOOGLE_COOKIE, `${state}.${verifier}.${expires}`, c.env.TOKEN_SECRET, {
    ...cookieOptions(c.env),
    maxAge: FLOW_TTL_S,
  });
  return oauth.createAuthorizationURLWithPKCE(c.env.GOOGLE_AUTH_URL, state, CodeChallengeMethod.S256, verifier, [
    "openid",
    "email",
    "profile",
  ]);
}

/** Reads and clears the flow cookie (one use), then checks the state the provider sent back. */
async function takeVerifier(c: Context<AppEnv>, state: string): Promise<string> {
  const saved = await getSignedCookie(c, c.env.TOKEN_SECRET, GOOGLE_COOKIE);
  deleteCookie(c, GOOGLE_COOKIE, cookieOptions(c.env));
  const [savedState, verifier, expires] = typeof saved === "string" ? saved.split(".") : [];
  if (
    !savedState ||
    !verifier ||
    !timingSafeEqual(new TextEncoder().encode(savedState), new TextEncoder().encode(state))
  )
    throw googleFailed("state");
  if (Number(expires) * 1000 < Date.now()) throw googleFailed("expired");
  return verifier;
}

export interface GoogleClaims {
  sub: string;
  email: string;
  name: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Exchanges the code, verifies the ID token (signature, issuer, audience, expiry) and a verified email. */
export async function googleClaims(c: Context<AppEnv>, code: string, state: string): Promise<GoogleClaims> {
  const verifier = await takeVerifier(c, state);
  if (!code) throw googleFailed("missing_code", 400);
  let idToken: string;
  try {
    const tokens = await client(c).validateAuthorizationCode(c.env.GOOGLE_TOKEN_URL, code, verifier);
    idToken = tokens.idToken();
  } catch {
    throw googleFailed("exchange");
  }
  const issuer = c.env.GOOGLE_ISSUER;
  // Google signs with either form of its issuer.
  const iss = new RegExp(
    `^(${escapeRe(issuer)}${issuer === "https://accounts.google.com" ? "|accounts\\.google\\.com" : ""})$`,
  );
  let claims: Record<string, unknown>;
  try {
    claims = await verifyWithJwks(idToken, {
      jwks_uri: c.env.GOOGLE_JWKS_URL,
      allowedAlgorithms: ["RS256", "ES256"],
      verification: { iss, aud: c.env.GOOGLE_CLIENT_ID },
    });
  } catch {
    throw googleFailed("id_token");
  }
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  if (typeof claims.sub !== "string" || !claims.sub || !email) throw googleFailed("id_token");
  if (claims.email_verified !== true && claims.email_verified !== "true") throw googleFailed("unverified");
  const name = typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : email.split("@")[0];
  return { sub: claims.sub, email, name };
}

/** A valid, free username from the email's local part (changeable later in settings). */
export async function usernameFor(db: DB, email: string): Promise<string> {
  let base = email
    .split("@")[0]
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "")
    .slice(0, 28);
  if (!/^[a-z]/.test(base)) base = `u${base}`.slice(0, 28);
  if (base.length < 5 || RESERVED.has(base)) base = `${base}_user`.slice(0, 28);
  for (let i = 0; i < 20; i++) {
    const candidate = i === 0 ? base : `${base}${Math.floor(1000 + Math.random() * 9000)}`;
    if (Username.safeParse(candidate).success && !(await usernameTaken(db, candidate))) return candidate;
  }
  throw googleFailed("username", 409);
}

/**
 * Finds the account by Google subject, else links the account whose CONFIRMED address Google
 * verified, else creates one. An account that holds the address without ever confirming it is not
 * matched (issue 20 #5): whoever signed up with it may not own it. It loses the address, which
 * goes to Google's verified owner, and keeps its password and content under its username.
 */
export async function googleUser(db: DB, claims: GoogleClaims) {
  const [bySub] = await db.select().from(users).where(eq(users.googleSub, claims.sub)).limit(1);
  if (bySub) return bySub;
  const [byEmail] = await db.select().from(users).where(eq(users.email, claims.email)).limit(1);
  if (byEmail?.confirmed) {
    // An account already tied to another Google identity is not silently re-linked.
    if (byEmail.googleSub) throw googleFailed("linked", 409);
    const [linked] = await db.update(users).set({ googleSub: claims.sub }).where(eq(users.id, byEmail.id)).returning();
    return linked;
  }
  const username = await usernameFor(db, claims.email);
  const insert = db
    .insert(users)
    .values({
      username,
      email: claims.email,
      fullname: capitalise(claims.name).slice(0, 34),
      passwordHash: null,
      googleSub: claims.sub,
      confirmed: true,
    })
    .returning();
  const made = await runNamed(db, {
    // The unconfirmed holder gets an address that can never receive mail (RFC 2606 .invalid).
    ...(byEmail
      ? {
          unclaimed: db
            .update(users)
            .set({ email: `unclaimed-${byEmail.id}@users.invalid` })
            .where(and(eq(users.id, byEmail.id), eq(users.confirmed, false))),
        }
      : {}),
    user: insert,
    claimed: claimName(db, username),
  });
  return made.user[0];
}
