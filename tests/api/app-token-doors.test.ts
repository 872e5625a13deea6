// An app's token opens the Mastodon API within its scopes and nothing else: not as the session
// cookie, not as a /v1 bearer, not for pages, refresh, consent or settings. What can hand the
// account to someone else (its email) asks for the password. Revoking an app ends all it holds.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSession } from "../../worker/lib/sessions";
import { hashSecret } from "../../worker/lib/secret";
import { signToken } from "../../worker/lib/token";
import { user } from "../factories";
import { Client } from "../http";
import { appToken, REDIRECT, registerApp } from "../mastodon";

/** A client that presents `secret` as the session cookie, as a stolen app token would be. */
function asCookie(secret: string) {
  const c = new Client();
  c.cookie = `notex_sid=${secret}`;
  return c;
}

/** A person's token for `app` (consent, then the code exchanged): a second token of the same app. */
async function tokenFor(person: Awaited<ReturnType<typeof user>>, app: Awaited<ReturnType<typeof registerApp>>) {
  const { token, status } = await appToken(person, "read", app);
  expect(status).toBe(200);
  return token;
}

describe("an app's token is not a web session", () => {
  it("as the session cookie it opens no /v1 route, no refresh, no consent and no settings", async () => {
    const person = await user();
    const { token } = await appToken(person, "read");
    const c = asCookie(token);
    expect((await c.get("/v1/me")).status).toBe(401);
    expect((await c.get("/v1/refresh")).status).toBe(401);
    expect((await c.get("/v1/sessions")).status).toBe(401);
    expect((await c.post("/v1/notes", { label: "idea", content: "<p>from an app</p>" })).status).toBe(401);
    expect((await c.patch("/v1/users/email", { email: "thief@evil.example" })).status).toBe(401);
    // Approving another app with wider scopes through the consent page.
    const wider = await registerApp("read write follow");
    const approved = await c.post("/v1/oauth/authorize", {
      response_type: "code",
      client_id: wider.clientId,
      redirect_uri: REDIRECT,
      scope: "read write follow",
    });
    expect(approved.status).toBe(401);
    // Pages (the stand-in page says whom the page handler resolved) see a visitor, and drop the cookie.
    const page = await c.get("/probe", { accept: "text/html" });
    expect(page.body).toContain("signed in as visitor");
    expect(page.headers.get("set-cookie")).toMatch(/^notex_sid=;/);
    // Nothing changed: the email is the person's own.
    expect((await person.get("/v1/me")).body.email).toBe(person.email);
    // The token itself still works where it belongs.
    const api = new Client();
    api.token = token;
    expect((await api.get("/api/v1/accounts/verify_credentials")).status).toBe(200);
  });

  it("as a /v1 bearer (a web token naming its session) it is refused", async () => {
    const person = await user();
    const { token } = await appToken(person, "read");
    const c = new Client();
    c.token = signToken(env.TOKEN_SECRET, person.id, hashSecret(token));
    expect((await c.get("/v1/me")).status).toBe(401);
    expect((await c.post("/v1/notes", { label: "idea", content: "<p>x</p>" })).status).toBe(401);
    // The raw token as a /v1 bearer is no web token either.
    c.token = token;
    expect((await c.get("/v1/me")).status).toBe(401);
  });
});

describe("what can lead to account recovery asks for the password", () => {
  it("changing the email needs the current password", async () => {
    const person = await user();
    const none = await person.patch("/v1/users/email", { email: `n${person.email}` });
    expect(none.status).toBe(401);
    expect(none.body.fields.password).toBe("current password is not correct.");
    const wrong = await person.patch("/v1/users/email", { email: `n${person.email}`, password: "wrong-pass-1" });
    expect(wrong.status).toBe(401);
    expect((await person.get("/v1/me")).body.pending_email).toBeNull();
    const ok = await person.patch("/v1/users/email", { email: `n${person.email}`, password: person.password });
    expect(ok.status).toBe(200);
    expect(ok.body.pending_email).toBe(`n${person.email}`);
  });

  it("an account without a password changes its email only within minutes of signing in", async () => {
    const person = await user();
    await env.DB.prepare("update users set password_hash = null where id = ?").bind(person.id).run();
    // A session signed in 11 minutes ago (written as sign-in writes it, then dated back).
    const { secret, session } = await createSession(env.SESSIONS, person.id, { device: "test" });
    const key = `session:${person.id}:${session.id}`;
    const stored = { created: session.created - 11 * 60_000, device: "test", expires: session.expires };
    await env.SESSIONS.put(key, JSON.stringify(stored), { metadata: stored });
    const old = asCookie(secret);
    const stale = await old.patch("/v1/users/email", { email: `n${person.email}` });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("reauth_required");
    // The session that just signed up is fresh.
    person.token = null;
    const fresh = await person.patch("/v1/users/email", { email: `n${person.email}` });
    expect(fresh.status).toBe(200);
  });
});

describe("revoking an app", () => {
  it("from Settings ends every token the person gave that app", async () => {
    const person = await user();
    const app = await registerApp("read");
    const first = await tokenFor(person, app);
    const second = await tokenFor(person, app);
    const listed = (await person.get("/v1/oauth/apps")).body.apps as { id: string; name: string }[];
    expect(listed).toHaveLength(2);
    expect((await person.delete(`/v1/oauth/apps/${encodeURIComponent(listed[0].id)}`)).status).toBe(200);
    for (const t of [first, second]) {
      const c = new Client();
      c.token = t;
      expect((await c.get("/api/v1/accounts/verify_credentials")).status).toBe(401);
    }
    expect((await person.get("/v1/oauth/apps")).body.apps).toEqual([]);
  });
});

describe("Settings → where you are signed in", () => {
  it("names an app by its name and what it may do, never 'Unknown device'", async () => {
    const person = await user();
    await appToken(person, "read write");
    const sessions = (await person.get("/v1/sessions")).body.sessions as {
      device: string;
      app?: string;
      scopes?: string[];
    }[];
    const app = sessions.find((s) => s.app);
    expect(app).toMatchObject({ device: "Test App", app: "Test App", scopes: ["read", "write"] });
  });
});
