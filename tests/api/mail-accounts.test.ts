// Issue 17 items 1–4 and issue 20 #5: mail, confirmation, email change, password reset, sessions.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../worker";
import { BASE, Client } from "../http";
import { user, visitor } from "../factories";
import { confirm, inbox, mailTo, tokenIn } from "../mail";
import { PRODUCTION_ENV } from "../prod-env";

const db = env.DB;
const verify = (token: string) => new Client().post("/v1/email/verify", { token });
const forgot = (email: string) => new Client().post("/v1/password/forgot", { email });
const reset = (token: string, password: string) => new Client().post("/v1/password/reset", { token, password });
const fakeToken = () => "A".repeat(43);
const login = (username: string, password: string) => new Client().post("/v1/login", { username, password });

describe("mail and the local outbox", () => {
  it("sign-up mails a confirmation link, kept in the outbox newest first with text and HTML bodies", async () => {
    const a = await user();
    const m = await mailTo(a.email, /Confirm your email/);
    expect(m).toMatchObject({ to: a.email, subject: "Confirm your email for NoteX" });
    expect(m.text).toMatch(/http:\/\/notex\.test\/confirm\?token=[\w-]{43}/);
    expect(m.html).toContain(`href="http://notex.test/confirm?token=${tokenIn(m, "/confirm")}"`);
    expect(m.sent_at).toBeGreaterThan(Date.now() - 60_000);
    await db.prepare("update account_tokens set created_at = created_at - 61000 where user_id = ?").bind(a.id).run();
    expect((await a.post("/v1/email/confirm")).status).toBe(200);
    const list = await inbox(a.email);
    expect(list.length).toBe(2);
    expect(list[0].sent_at).toBeGreaterThanOrEqual(list[1].sent_at);
    expect(tokenIn(list[0], "/confirm")).not.toBe(tokenIn(list[1], "/confirm"));
  });

  it("escapes what people typed in the HTML body", async () => {
    const a = await user();
    const evil = `x<b>${Math.random().toString(36).slice(2, 7)}@example.com`;
    await a.patch("/v1/users/email", { email: evil, password: a.password });
    const notice = await mailTo(a.email, /being changed/);
    expect(notice.html).not.toContain("<b>");
    expect(notice.html).toContain("&lt;b&gt;");
  });

  it("answers 404 for /v1/dev/outbox and the /dev/outbox page unless APP_ENV is local, whatever the query", async () => {
    const a = await user();
    for (const APP_ENV of ["production", "staging", ""]) {
      for (const q of [
        `/v1/dev/outbox?to=${a.email}`,
        "/v1/dev/outbox",
        "/v1/dev/outbox?to=",
        `/dev/outbox?to=${a.email}`,
      ]) {
        const ctx = createExecutionContext();
        const res = await worker.fetch(new Request(`${BASE}${q}`), { ...env, ...PRODUCTION_ENV, APP_ENV }, ctx);
        await waitOnExecutionContext(ctx);
        expect(res.status, `${APP_ENV} ${q}`).toBe(404);
        const text = await res.text();
        expect(text).not.toContain(a.email);
        // The page is refused before Remix (whose stand-in here answers "pages are tested by Playwright").
        if (q.startsWith("/dev/")) expect(text).toBe("Not found");
      }
    }
    expect((await visitor().get(`/v1/dev/outbox?to=${a.email}`)).status).toBe(200);
    expect((await visitor().get(`/dev/outbox?to=${a.email}`)).body).toBe("pages are tested by Playwright");
  });
});

describe("email confirmation", () => {
  it("a link confirms the address once; /v1/me shows it; reused, forged and malformed links are refused", async () => {
    const a = await user();
    expect((await a.get("/v1/me")).body.confirmed).toBe(false);
    const token = tokenIn(await mailTo(a.email, /Confirm your email/), "/confirm");
    const ok = await verify(token);
    expect(ok.status).toBe(200);
    expect(ok.body.email).toBe(a.email);
    expect((await a.get("/v1/me")).body.confirmed).toBe(true);
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("token_invalid");
    for (const forged of [fakeToken(), `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, "short", ""]) {
      const res = await verify(forged);
      expect(res.status, forged).toBe(400);
      expect(res.body.code).toBe("token_invalid");
    }
  });

  it("an expired link is refused and used up; asking again sends a new one that works", async () => {
    const a = await user();
    const token = tokenIn(await mailTo(a.email, /Confirm your email/), "/confirm");
    await db
      .prepare("update account_tokens set expires_at = ?, created_at = 0 where user_id = ?")
      .bind(Date.now() - 1, a.id)
      .run();
    const res = await verify(token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "token_expired",
      message: "This link has expired. Please ask for a new one.",
    });
    expect((await a.get("/v1/me")).body.confirmed).toBe(false);
    expect((await a.post("/v1/email/confirm")).status).toBe(200);
    expect((await confirm(a.email)).status).toBe(200);
    expect((await a.get("/v1/me")).body.confirmed).toBe(true);
  });

  it("asking again voids the older link, is rate limited, refuses visitors and confirmed accounts", async () => {
    const a = await user();
    const first = tokenIn(await mailTo(a.email, /Confirm your email/), "/confirm");
    // The first link was sent a minute ago (the resend throttle is one a minute).
    await db.prepare("update account_tokens set created_at = created_at - 61000 where user_id = ?").bind(a.id).run();
    const at = Date.now();
    expect((await a.post("/v1/email/confirm")).status).toBe(200);
    const soon = await a.post("/v1/email/confirm");
    expect(soon.status).toBe(429);
    const second = tokenIn(await mailTo(a.email, /Confirm your email/, at), "/confirm");
    expect(second).not.toBe(first);
    expect((await verify(first)).status).toBe(400);
    expect((await verify(second)).status).toBe(200);
    const done = await a.post("/v1/email/confirm");
    expect(done.status).toBe(409);
    expect(done.body.message).toBe("Your email is already confirmed.");
    expect((await visitor().post("/v1/email/confirm")).status).toBe(401);
  });
});

describe("email change (issue 20 #5)", () => {
  it("takes effect only once the new address confirms; the old address is told", async () => {
    const a = await user();
    const next = `moved${Math.random().toString(36).slice(2, 9)}@example.com`;
    const res = await a.patch("/v1/users/email", { email: next, password: a.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: a.email, pending_email: next });
    const notice = await mailTo(a.email, /being changed/);
    expect(notice.text).toContain(next);
    // Not yet the account's address: no login by it, no reset to it, no one else blocked by it.
    expect((await login(next, a.password)).status).toBe(401);
    expect((await confirm(next)).status).toBe(200);
    const me = (await a.get("/v1/me")).body;
    expect(me).toMatchObject({ email: next, pending_email: null, confirmed: true });
    expect((await login(next, a.password)).status).toBe(200);
  });

  it("asking for the current address withdraws a pending change and voids its link", async () => {
    const a = await user();
    const next = `undo${Math.random().toString(36).slice(2, 9)}@example.com`;
    await a.patch("/v1/users/email", { email: next, password: a.password });
    const token = tokenIn(await mailTo(next, /Confirm your email/), "/confirm");
    const back = await a.patch("/v1/users/email", { email: a.email, password: a.password });
    expect(back.body.pending_email).toBeNull();
    expect((await verify(token)).status).toBe(400);
    expect((await a.get("/v1/me")).body.email).toBe(a.email);
  });

  it("refuses an address another account uses (409) and a second account cannot confirm one taken meanwhile", async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    expect((await a.patch("/v1/users/email", { email: b.email, password: a.password })).status).toBe(409);
    const shared = `shared${Math.random().toString(36).slice(2, 9)}@example.com`;
    await a.patch("/v1/users/email", { email: shared, password: a.password });
    const aLink = tokenIn(await mailTo(shared, /Confirm your email/), "/confirm");
    const at = Date.now();
    await c.patch("/v1/users/email", { email: shared, password: c.password });
    const cLink = tokenIn(await mailTo(shared, /Confirm your email/, at), "/confirm");
    expect((await verify(cLink)).status).toBe(200);
    const late = await verify(aLink);
    expect(late.status).toBe(409);
    expect((await a.get("/v1/me")).body.email).toBe(a.email);
  });
});

describe("forgot and reset password", () => {
  it("answers the same 200 and body whether or not the address exists, and mails only a real one", async () => {
    const a = await user();
    const nobody = `nobody${Math.random().toString(36).slice(2, 9)}@example.com`;
    const [known, unknown] = [await forgot(a.email.toUpperCase()), await forgot(nobody)];
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(tokenIn(await mailTo(a.email, /Reset your NoteX password/), "/reset")).toMatch(/^[\w-]{43}$/);
    await new Promise((r) => setTimeout(r, 200));
    expect(await inbox(nobody)).toEqual([]);
    const bad = await forgot("not-an-address");
    expect(bad.status).toBe(422);
    expect(bad.body.fields.email).toBe("email is not valid");
  });

  it("stores only the token's hash, 256 bits of it, expiring in an hour", async () => {
    const a = await user();
    const before = Date.now();
    await forgot(a.email);
    const token = tokenIn(await mailTo(a.email, /Reset/), "/reset");
    expect(token).toMatch(/^[\w-]{43}$/); // 32 bytes, base64url
    const row = await db
      .prepare("select id, expires_at from account_tokens where user_id = ? and purpose = 'reset'")
      .bind(a.id)
      .first<{ id: string; expires_at: number }>();
    expect(row?.id).not.toBe(token);
    expect(row?.id).toMatch(/^[\w-]{43}$/);
    expect(row!.expires_at - before).toBeGreaterThan(59 * 60_000);
    expect(row!.expires_at - before).toBeLessThanOrEqual(60 * 60_000 + 5_000);
  });

  it("sets the password, ends every session, confirms the address, and the link works once", async () => {
    const a = await user();
    const other = new Client();
    const signedIn = await other.post("/v1/login", { username: a.username, password: a.password });
    other.token = signedIn.body.token;
    const cookieOnly = new Client();
    cookieOnly.cookie = other.cookie;
    await forgot(a.email);
    const token = tokenIn(await mailTo(a.email, /Reset/), "/reset");
    const weak = await reset(token, "short");
    expect(weak.status).toBe(422);
    expect(weak.body.fields.password).toBe("password must be at least 6 characters");
    const ok = await reset(token, "brandnew9");
    expect(ok.status).toBe(200);
    for (const c of [a, other, cookieOnly]) expect((await c.get("/v1/me")).status).toBe(401);
    expect((await cookieOnly.get("/v1/refresh")).status).toBe(401);
    expect((await login(a.username, a.password)).status).toBe(401);
    const fresh = await login(a.username, "brandnew9");
    expect(fresh.status).toBe(200);
    expect(fresh.body.user.confirmed).toBe(true);
    const reused = await reset(token, "another9");
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe("token_invalid");
    expect((await login(a.username, "brandnew9")).status).toBe(200);
    await mailTo(a.email, /password was changed/);
  });

  it("refuses expired and forged tokens, and a newer link voids the older one", async () => {
    const a = await user();
    await forgot(a.email);
    const older = tokenIn(await mailTo(a.email, /Reset/), "/reset");
    await db.prepare("update account_tokens set created_at = created_at - 61000 where user_id = ?").bind(a.id).run();
    const at = Date.now();
    await forgot(a.email);
    const newer = tokenIn(await mailTo(a.email, /Reset/, at), "/reset");
    expect(newer).not.toBe(older);
    expect((await reset(older, "voided99")).body.code).toBe("token_invalid");
    expect((await reset(fakeToken(), "forged99")).body.code).toBe("token_invalid");
    await db
      .prepare("update account_tokens set expires_at = ? where user_id = ?")
      .bind(Date.now() - 1, a.id)
      .run();
    const expired = await reset(newer, "expired9");
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe("token_expired");
    expect((await login(a.username, a.password)).status).toBe(200);
  });

  it("a second request within a minute sends nothing new (and still answers the same)", async () => {
    const a = await user();
    await forgot(a.email);
    await mailTo(a.email, /Reset/);
    const again = await forgot(a.email);
    expect(again.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await inbox(a.email)).filter((m) => /Reset/.test(m.subject)).length).toBe(1);
  });
});

describe("sessions", () => {
  const CHROME =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
  const loginAs = async (a: { username: string; password: string }, ua: string) => {
    const c = new Client();
    const res = await c.post("/v1/login", { username: a.username, password: a.password }, { "user-agent": ua });
    c.token = res.body.token;
    return c;
  };

  it("lists where the person is signed in: device, created, last active, this one marked", async () => {
    const a = await user();
    const laptop = await loginAs(a, CHROME);
    await loginAs(a, IPHONE);
    const res = await laptop.get("/v1/sessions");
    expect(res.status).toBe(200);
    const list = res.body.sessions as {
      id: string;
      device: string;
      current: boolean;
      created_at: number;
      last_active_at: number;
    }[];
    expect(list.length).toBe(3);
    expect(list.filter((s) => s.current).map((s) => s.device)).toEqual(["Chrome on Linux"]);
    expect(list.map((s) => s.device)).toContain("Safari on iPhone");
    for (const s of list) {
      expect(s.id).toMatch(/^[\w-]{43}$/);
      expect(s.created_at).toBeGreaterThan(Date.now() - 60_000);
      expect(s.last_active_at).toBeGreaterThanOrEqual(s.created_at);
    }
    // The list shows ids, never the cookie's secret.
    expect(JSON.stringify(res.body)).not.toContain(laptop.cookie!.split("=")[1]);
    expect((await visitor().get("/v1/sessions")).status).toBe(401);
  });

  it("ending one session stops its token and cookie at once; another person's session is not found", async () => {
    const [a, b] = [await user(), await user()];
    const phone = await loginAs(a, IPHONE);
    const phoneCookie = new Client();
    phoneCookie.cookie = phone.cookie;
    const target = (await a.get("/v1/sessions")).body.sessions.find(
      (s: { device: string }) => s.device === "Safari on iPhone",
    );
    expect((await b.delete(`/v1/sessions/${target.id}`)).status).toBe(404);
    expect((await phone.get("/v1/me")).status).toBe(200);
    expect((await a.delete(`/v1/sessions/${target.id}`)).status).toBe(200);
    expect((await phone.get("/v1/me")).status).toBe(401);
    expect((await phone.get("/v1/discover?page=1")).status).toBe(401);
    expect((await phoneCookie.get("/v1/me")).status).toBe(401);
    expect((await phoneCookie.get("/v1/refresh")).status).toBe(401);
    expect((await a.get("/v1/me")).status).toBe(200);
    expect((await a.delete(`/v1/sessions/${target.id}`)).status).toBe(404);
    expect((await a.delete("/v1/sessions/not-an-id")).status).toBe(404);
  });

  it("ending all others keeps this one", async () => {
    const a = await user();
    const others = [await loginAs(a, IPHONE), await loginAs(a, CHROME)];
    const res = await a.delete("/v1/sessions");
    expect(res.body.ended).toBe(2);
    for (const o of others) expect((await o.get("/v1/me")).status).toBe(401);
    expect((await a.get("/v1/me")).status).toBe(200);
    expect((await a.get("/v1/sessions")).body.sessions.length).toBe(1);
  });

  it("refreshes last active at most every few minutes, never on each request", async () => {
    const a = await user();
    const c = new Client();
    c.cookie = a.cookie;
    // "Last active" is its own KV key (lib/sessions.ts): set it back as if time had passed.
    const [key] = (await env.SESSIONS.list({ prefix: `session:${a.id}:` })).keys;
    const seenKey = key.name.replace("session:", "seen:");
    const setSeen = (t: number) => env.SESSIONS.put(seenKey, String(t), { metadata: { t } });
    const seen = async () => Number(await env.SESSIONS.get(seenKey));
    const fourMinutes = Date.now() - 4 * 60_000;
    await setSeen(fourMinutes);
    await c.get("/v1/me");
    await new Promise((r) => setTimeout(r, 100));
    expect(await seen()).toBe(fourMinutes);
    const tenMinutes = Date.now() - 10 * 60_000;
    await setSeen(tenMinutes);
    await c.get("/v1/me");
    for (let i = 0; i < 20 && (await seen()) === tenMinutes; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await seen()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("logout everywhere deletes every KV key of the account's sessions", async () => {
    const a = await user();
    await loginAs(a, IPHONE);
    expect((await env.SESSIONS.list({ prefix: `session:${a.id}:` })).keys.length).toBe(2);
    await a.get("/v1/logout?all=1");
    expect((await env.SESSIONS.list({ prefix: `session:${a.id}:` })).keys).toEqual([]);
  });
});
