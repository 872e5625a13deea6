import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { env } from "cloudflare:test";
import { sign } from "hono/jwt";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "../http";
import { confirm, mailTo, tokenIn } from "../mail";

// The provider side of the flow, played by the test: a real RSA key, a JWKS, and a token endpoint
// that checks the PKCE verifier against the challenge the worker sent, as Google's does.
let privateJwk: JsonWebKey & { kid: string; alg: string };
let publicJwk: JsonWebKey & { kid: string; alg: string };

beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  privateJwk = { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey), kid: "k1", alg: "RS256" };
  publicJwk = { ...((await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey), kid: "k1", alg: "RS256" };
});
afterEach(() => vi.restoreAllMocks());

const b64url = (bytes: ArrayBuffer) => encodeBase64urlNoPadding(new Uint8Array(bytes));

interface Claims {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  iss?: string;
  aud?: string;
  exp?: number;
}

/** Serves the token endpoint and JWKS for one sign-in; everything else fails loudly. */
function provider(claims: Claims, { challenge }: { challenge: string }) {
  const real = globalThis.fetch;
  const seen: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    seen.push(req.url);
    if (req.url === "https://idp.test/jwks") return Response.json({ keys: [publicJwk] });
    if (req.url === "https://idp.test/token") {
      const form = new URLSearchParams(await req.text());
      const verifier = form.get("code_verifier") ?? "";
      const digest = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
      if (form.get("code") !== "good-code" || digest !== challenge) {
        return Response.json({ error: "invalid_grant" }, { status: 400 });
      }
      const now = Math.floor(Date.now() / 1000);
      const idToken = await sign(
        { iss: "https://idp.test", aud: "test-client", iat: now, exp: now + 300, ...claims },
        privateJwk,
        "RS256",
      );
      return Response.json({ access_token: "at", token_type: "Bearer", expires_in: 300, id_token: idToken });
    }
    return real(input, init);
  });
  return seen;
}

/** Starts a flow like the Google button does: the redirect, its state and challenge, and the cookie. */
async function start(c: Client) {
  const res = await c.get("/v1/login/google/start");
  expect(res.status, JSON.stringify(res.body)).toBe(302);
  const to = new URL(res.headers.get("location") ?? "");
  const flow = (res.headers.getSetCookie?.() ?? []).find((x) => x.startsWith("notex_g=")) ?? "";
  return {
    to,
    state: to.searchParams.get("state") ?? "",
    challenge: to.searchParams.get("code_challenge") ?? "",
    setCookie: flow,
    cookie: flow.split(";")[0],
  };
}

const back = (c: Client, cookie: string, q: Record<string, string>) =>
  c.get(`/v1/login/google?${new URLSearchParams(q)}`, { cookie });

const uniq = () => Math.random().toString(36).slice(2, 9);

describe("Google sign-in", () => {
  it("redirects to the provider with PKCE, state and the three scopes, keeping them in a signed HttpOnly cookie", async () => {
    const { to, state, challenge, setCookie } = await start(new Client());
    expect(`${to.origin}${to.pathname}`).toBe("https://idp.test/auth");
    expect(to.searchParams.get("client_id")).toBe("test-client");
    expect(to.searchParams.get("response_type")).toBe("code");
    expect(to.searchParams.get("redirect_uri")).toBe("http://notex.test/callback/google");
    expect(to.searchParams.get("scope")).toBe("openid email profile");
    expect(to.searchParams.get("code_challenge_method")).toBe("S256");
    expect(state.length).toBeGreaterThan(20);
    expect(challenge).toMatch(/^[\w-]{43}$/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=600/);
  });

  it("creates an account with a username from the email, signs in, and finds the same account by subject next time", async () => {
    const c = new Client();
    const sub = `g-${uniq()}`;
    const local = `Grace.Hopper+${uniq()}`;
    const flow = await start(c);
    provider({ sub, email: `${local}@Example.com`, email_verified: true, name: "grace hopper" }, flow);
    const res = await back(c, flow.cookie, { code: "good-code", state: flow.state });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.token).toMatch(/^ey/);
    expect(res.body.user.username).toBe(local.toLowerCase().replace(/[^a-z0-9_]/g, ""));
    expect(res.body.user.fullname).toBe("Grace Hopper");
    expect(res.body.user.email).toBe(`${local.toLowerCase()}@example.com`);
    // The session works like a password login's, and the flow cookie is spent.
    expect((await c.get("/v1/me")).body.id).toBe(res.body.user.id);
    expect(res.headers.getSetCookie().some((x) => /^notex_g=;/.test(x) || /notex_g=.*Max-Age=0/.test(x))).toBe(true);
    const row = await env.DB.prepare("select password_hash, google_sub from users where id = ?")
      .bind(res.body.user.id)
      .first<{ password_hash: string | null; google_sub: string }>();
    expect(row).toEqual({ password_hash: null, google_sub: sub });

    vi.restoreAllMocks();
    const again = new Client();
    const flow2 = await start(again);
    provider({ sub, email: `${local}@example.com`, email_verified: true }, flow2);
    const res2 = await back(again, flow2.cookie, { code: "good-code", state: flow2.state });
    expect(res2.status).toBe(200);
    expect(res2.body.user.id).toBe(res.body.user.id);
  });

  it("links the account whose confirmed email Google verified", async () => {
    const c = new Client();
    const username = `linda${uniq()}`;
    const email = `${username}@example.com`;
    const made = await c.post("/v1/signup", { email, name: "Linda", username, password: "secret1" });
    expect(made.status).toBe(201);
    expect((await confirm(email)).status).toBe(200);
    const g = new Client();
    const flow = await start(g);
    provider({ sub: `g-${uniq()}`, email: email.toUpperCase(), email_verified: true }, flow);
    const res = await back(g, flow.cookie, { code: "good-code", state: flow.state });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(made.body.user.id);
    expect(res.body.user.username).toBe(username);
    // The owner proved the address: their password and session go on working.
    expect((await c.get("/v1/me")).status).toBe(200);
    expect((await new Client().post("/v1/login", { username, password: "secret1" })).status).toBe(200);
  });

  it("never matches an account by an address it did not confirm: Google's owner gets their own account and the address (issue 20 #5)", async () => {
    const squatter = new Client();
    const username = `squat${uniq()}`;
    const email = `victim${uniq()}@example.com`;
    const made = await squatter.post("/v1/signup", { email, name: "Squatter", username, password: "secret1" });
    expect(made.status).toBe(201);
    const g = new Client();
    const flow = await start(g);
    provider({ sub: `g-${uniq()}`, email, email_verified: true, name: "Victim" }, flow);
    const res = await back(g, flow.cookie, { code: "good-code", state: flow.state });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).not.toBe(made.body.user.id);
    expect(res.body.user.email).toBe(email);
    expect(res.body.user.confirmed).toBe(true);
    // The squatter keeps their account, not the address.
    const mine = await squatter.get("/v1/me");
    expect(mine.status).toBe(200);
    expect(mine.body.email).not.toBe(email);
  });

  it("an email change to someone else's address does not take effect, so its owner still signs in with Google (issue 20 #5)", async () => {
    const owner = `owner${uniq()}@example.com`;
    // The squatter is a Google account that asks for the owner's address without owning it.
    const g1 = new Client();
    const f1 = await start(g1);
    provider({ sub: `g-${uniq()}`, email: `squat${uniq()}@example.com`, email_verified: true }, f1);
    const s = await back(g1, f1.cookie, { code: "good-code", state: f1.state });
    expect(s.status).toBe(200);
    g1.token = s.body.token;
    vi.restoreAllMocks();
    const change = await g1.patch("/v1/users/email", { email: owner });
    expect(change.status).toBe(200);
    expect(change.body.email).not.toBe(owner);
    expect(change.body.pending_email).toBe(owner);
    const g2 = new Client();
    const f2 = await start(g2);
    provider({ sub: `g-${uniq()}`, email: owner, email_verified: true }, f2);
    const res = await back(g2, f2.cookie, { code: "good-code", state: f2.state });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).not.toBe(s.body.user.id);
    expect(res.body.user.email).toBe(owner);
    // And the squatter's link, if it ever reached them, can no longer take the address.
    vi.restoreAllMocks();
    const late = await confirm(owner);
    expect(late.status).toBe(409);
  });

  it("a Google-only account can set a password through the reset link, and must type its username to delete", async () => {
    const g = new Client();
    const flow = await start(g);
    const email = `gonly${uniq()}@example.com`;
    provider({ sub: `g-${uniq()}`, email, email_verified: true }, flow);
    const res = await back(g, flow.cookie, { code: "good-code", state: flow.state });
    expect(res.status).toBe(200);
    vi.restoreAllMocks();
    g.token = res.body.token;
    const username = res.body.user.username;
    expect((await new Client().post("/v1/login", { username, password: "chosen123" })).status).toBe(401);
    expect((await new Client().post("/v1/password/forgot", { email })).status).toBe(200);
    const token = tokenIn(await mailTo(email, /Reset/), "/reset");
    expect((await new Client().post("/v1/password/reset", { token, password: "chosen123" })).status).toBe(200);
    const signedIn = await new Client().post("/v1/login", { username, password: "chosen123" });
    expect(signedIn.status).toBe(200);
    // Deleting a Google-only account asks for the username instead of a password.
    const g2 = new Client();
    const flow2 = await start(g2);
    const email2 = `gonly${uniq()}@example.com`;
    provider({ sub: `g-${uniq()}`, email: email2, email_verified: true }, flow2);
    const res2 = await back(g2, flow2.cookie, { code: "good-code", state: flow2.state });
    vi.restoreAllMocks();
    g2.token = res2.body.token;
    const wrong = await g2.request("DELETE", "/v1/users", { username: "someone_else" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.fields.username).toBe("Type your username to confirm.");
    const ok = await g2.request("DELETE", "/v1/users", { username: res2.body.user.username.toUpperCase() });
    expect(ok.status).toBe(200);
    expect((await new Client().get(`/v1/users/${res2.body.user.username}`)).status).toBe(404);
  });

  it("refuses an unverified email and creates nothing", async () => {
    const c = new Client();
    const email = `nover${uniq()}@example.com`;
    const flow = await start(c);
    provider({ sub: `g-${uniq()}`, email, email_verified: false }, flow);
    const res = await back(c, flow.cookie, { code: "good-code", state: flow.state });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "google_unverified", message: "Something went wrong, please try again!" });
    expect(await env.DB.prepare("select id from users where email = ?").bind(email).first()).toBeNull();
  });

  it("refuses a state that does not match the cookie, a missing cookie, and a replayed state", async () => {
    const c = new Client();
    const flow = await start(c);
    const seen = provider({ sub: `g-${uniq()}`, email: `st${uniq()}@example.com`, email_verified: true }, flow);
    const wrong = await back(c, flow.cookie, { code: "good-code", state: `${flow.state}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("google_state");
    expect((await back(c, "", { code: "good-code", state: flow.state })).body.code).toBe("google_state");
    // A forged cookie (right state, wrong signature) is refused too.
    const forged = flow.cookie.replace(/.(?=;|$)/, (ch) => (ch === "A" ? "B" : "A"));
    expect((await back(c, forged, { code: "good-code", state: flow.state })).body.code).toBe("google_state");
    expect(seen.filter((u) => u.startsWith("https://idp.test/token"))).toHaveLength(0);

    const ok = await start(c);
    vi.restoreAllMocks();
    provider({ sub: `g-${uniq()}`, email: `rp${uniq()}@example.com`, email_verified: true }, ok);
    expect((await back(c, ok.cookie, { code: "good-code", state: ok.state })).status).toBe(200);
    // The answer cleared the cookie, so replaying the same state and code is refused.
    expect((await back(c, "", { code: "good-code", state: ok.state })).body.code).toBe("google_state");
  });

  it("answers 400 for a missing code and 401 when the provider refuses the exchange", async () => {
    const c = new Client();
    const flow = await start(c);
    provider({ sub: `g-${uniq()}`, email: `mc${uniq()}@example.com`, email_verified: true }, flow);
    const missing = await back(c, flow.cookie, { state: flow.state });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: "google_missing_code",
      message: "Something went wrong, please try again!",
    });
    const flow2 = await start(c);
    const bad = await back(c, flow2.cookie, { code: "bad-code", state: flow2.state });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe("google_exchange");
  });

  it("refuses an ID token for another audience, from another issuer, or expired", async () => {
    for (const claims of [
      { aud: "someone-else" },
      { iss: "https://evil.test" },
      { exp: Math.floor(Date.now() / 1000) - 60 },
    ]) {
      vi.restoreAllMocks();
      const c = new Client();
      const flow = await start(c);
      provider({ sub: `g-${uniq()}`, email: `au${uniq()}@example.com`, email_verified: true, ...claims }, flow);
      const res = await back(c, flow.cookie, { code: "good-code", state: flow.state });
      expect(res.status, JSON.stringify(claims)).toBe(401);
      expect(res.body.code).toBe("google_id_token");
    }
  });
});
