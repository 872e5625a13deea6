// Limits on the OAuth doors anyone can knock on: registering apps, trading for tokens and revoking
// them have budgets per client address; app-only tokens and apps nobody authorised expire; secrets
// never travel in a URL's query string (RFC 6749 2.3.1).
import { createScheduledController, env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { user } from "../factories";
import { Client, type Res } from "../http";
import { consent, REDIRECT } from "../mastodon";
import worker from "../worker";

const TOO_MANY = "Too many requests, please try again.";
const HOUR = 60 * 60 * 1000;

async function register(c = new Client(), scopes = "read write") {
  const res = await c.post("/api/v1/apps", { client_name: "Limits App", redirect_uris: REDIRECT, scopes });
  expect(res.status).toBe(200);
  return res.body as { id: string; client_id: string; client_secret: string };
}

/** `n` calls at once; answers the statuses after checking each 429 is the catalogue's, in Mastodon's shape. */
async function fire(n: number, call: (i: number) => Promise<Res>) {
  const all = await Promise.all(Array.from({ length: n }, (_, i) => call(i)));
  for (const r of all.filter((r) => r.status === 429)) expect(r.body).toEqual({ error: TOO_MANY });
  return all.map((r) => r.status);
}

describe("secrets never in the query string", () => {
  it("/oauth/token and /oauth/revoke answer 400 to a client secret, code or password in the URL", async () => {
    const app = await register();
    const c = new Client();
    const inUrl = await c.post(`/oauth/token?${new URLSearchParams({ client_secret: app.client_secret })}`, {
      grant_type: "client_credentials",
      client_id: app.client_id,
    });
    expect(inUrl.status).toBe(400);
    expect(inUrl.body.error).toBe("invalid_request");
    for (const param of ["code", "password", "code_verifier"]) {
      const res = await c.post(`/oauth/token?${param}=x`, {
        grant_type: "client_credentials",
        client_id: app.client_id,
        client_secret: app.client_secret,
      });
      expect(res.status, param).toBe(400);
    }
    const revoke = await c.post(`/oauth/revoke?client_secret=${app.client_secret}`, {
      client_id: app.client_id,
      token: "x",
    });
    expect(revoke.status).toBe(400);
    // In the body it works.
    const ok = await c.post("/oauth/token", {
      grant_type: "client_credentials",
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(ok.status).toBe(200);
  });
});

describe("per-client budgets", () => {
  it("registering apps: 5 a minute per address, then 429; another address is not held back", async () => {
    const c = new Client();
    const statuses = await fire(11, () =>
      c.post("/api/v1/apps", { client_name: "Spam", redirect_uris: REDIRECT, scopes: "read" }),
    );
    const ok = statuses.filter((s) => s === 200).length;
    expect(ok).toBeGreaterThanOrEqual(5);
    expect(ok).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    await register(new Client());
  });

  it("/oauth/token and /oauth/revoke: 30 a minute per address, then 429", async () => {
    const app = await register();
    const c = new Client();
    const tokens = await fire(61, () =>
      c.post("/oauth/token", {
        grant_type: "client_credentials",
        client_id: app.client_id,
        client_secret: app.client_secret,
      }),
    );
    expect(tokens.filter((s) => s === 200).length).toBeGreaterThanOrEqual(30);
    expect(tokens.filter((s) => s === 429).length).toBeGreaterThan(0);
    const r = new Client();
    const revokes = await fire(61, () =>
      r.post("/oauth/revoke", { client_id: app.client_id, client_secret: app.client_secret, token: "x" }),
    );
    expect(revokes.filter((s) => s === 200).length).toBeGreaterThanOrEqual(30);
    expect(revokes.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});

describe("expiry", () => {
  it("an app-only token lives 24 hours", async () => {
    const app = await register();
    const res = await new Client().post("/oauth/token", {
      grant_type: "client_credentials",
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    expect(res.body.expires_in).toBe(24 * 60 * 60);
    const c = new Client();
    c.token = res.body.access_token;
    expect((await c.get("/api/v1/apps/verify_credentials")).status).toBe(200);
    await env.DB.prepare(
      "update oauth_tokens set created_at = ? where app_id = (select id from oauth_apps where client_id = ?)",
    )
      .bind(Date.now() - 25 * HOUR, app.client_id)
      .run();
    expect((await c.get("/api/v1/apps/verify_credentials")).status).toBe(401);
  });

  it("the hourly cleanup removes apps nobody authorised within a day, and expired app-only tokens", async () => {
    const person = await user();
    const [unused, authorised, appOnly, young] = [
      await register(),
      await register(),
      await register(),
      await register(),
    ];
    await consent(person, { client_id: authorised.client_id, redirect_uri: REDIRECT, scope: "read" });
    const token = async (app: { client_id: string; client_secret: string }) =>
      new Client().post("/oauth/token", {
        grant_type: "client_credentials",
        client_id: app.client_id,
        client_secret: app.client_secret,
      });
    await token(appOnly);
    await token(unused);
    const age = (clientId: string, ms: number) =>
      env.DB.batch([
        env.DB.prepare("update oauth_apps set created_at = ? where client_id = ?").bind(Date.now() - ms, clientId),
      ]);
    for (const app of [unused, authorised, appOnly]) await age(app.client_id, 25 * HOUR);
    // The unused app's token is old too; the app-only one was minted an hour ago and still lives.
    await env.DB.prepare(
      "update oauth_tokens set created_at = ? where app_id = (select id from oauth_apps where client_id = ?)",
    )
      .bind(Date.now() - 25 * HOUR, unused.client_id)
      .run();
    vi.spyOn(console, "log").mockImplementation(() => {});
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env);
    vi.restoreAllMocks();
    const exists = async (clientId: string) =>
      !!(await env.DB.prepare("select 1 from oauth_apps where client_id = ?").bind(clientId).first());
    expect(await exists(unused.client_id)).toBe(false);
    expect(await exists(authorised.client_id)).toBe(true);
    expect(await exists(appOnly.client_id)).toBe(true);
    expect(await exists(young.client_id)).toBe(true);
    const oldTokens = await env.DB.prepare("select count(*) as n from oauth_tokens where created_at < ?")
      .bind(Date.now() - 24 * HOUR)
      .first<{ n: number }>();
    expect(oldTokens?.n).toBe(0);
  });
});
