// Sessions live in KV (worker/lib/sessions.ts); every way a session ends deletes its keys, and the
// next request with its cookie or its bearer token is a visitor's page or a 401. One test per path.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type TestUser, user } from "../factories";
import { Client } from "../http";
import { mailTo, tokenIn } from "../mail";

const keysOf = async (uid: number) =>
  (await env.SESSIONS.list({ prefix: `session:${uid}:` })).keys.map((k) => k.name.split(":")[2]);

/** A second device of `a`, signed in with its password: its cookie, its token and its session id. */
async function device(a: TestUser) {
  const before = new Set(await keysOf(a.id));
  const c = new Client();
  const res = await c.post("/v1/login", { username: a.username, password: a.password });
  expect(res.status).toBe(200);
  c.token = res.body.token;
  const sid = (await keysOf(a.id)).find((id) => !before.has(id)) as string;
  return { cookie: c.cookie as string, token: c.token as string, sid };
}

/** What a device holds no longer works: its KV key is gone, the cookie is a visitor, the token a 401. */
async function expectEnded(uid: number, d: { cookie: string; token: string; sid: string }) {
  expect(await keysOf(uid)).not.toContain(d.sid);
  const byCookie = new Client();
  byCookie.cookie = d.cookie;
  expect((await byCookie.get("/v1/me")).status).toBe(401);
  expect((await byCookie.get("/v1/refresh")).status).toBe(401);
  expect((await byCookie.get(`/probe?v=${Math.random()}`)).body).toBe("<p>signed in as visitor</p>");
  const byToken = new Client();
  byToken.token = d.token;
  expect((await byToken.get("/v1/me")).status).toBe(401);
}

/** The device still works. */
async function expectLive(d: { cookie: string; token: string }) {
  const c = new Client();
  c.cookie = d.cookie;
  expect((await c.get("/v1/me")).status).toBe(200);
}

describe("every way a session ends deletes its KV keys, and it stops working", () => {
  it("log out ends this session only", async () => {
    const a = await user();
    const [one, two] = [await device(a), await device(a)];
    const c = new Client();
    c.cookie = one.cookie;
    expect((await c.get("/v1/logout")).status).toBe(200);
    await expectEnded(a.id, one);
    await expectLive(two);
  });

  it("log out with only a bearer token ends that token's session", async () => {
    const a = await user();
    const one = await device(a);
    const c = new Client();
    c.token = one.token;
    expect((await c.get("/v1/logout")).status).toBe(200);
    await expectEnded(a.id, one);
  });

  it("ending one session in Settings", async () => {
    const a = await user();
    const [one, two] = [await device(a), await device(a)];
    expect((await a.delete(`/v1/sessions/${one.sid}`)).status).toBe(200);
    await expectEnded(a.id, one);
    await expectLive(two);
  });

  it("ending all others in Settings keeps the one asking", async () => {
    const a = await user();
    const [one, two] = [await device(a), await device(a)];
    expect((await a.delete("/v1/sessions")).body).toEqual({ ended: 2 });
    await expectEnded(a.id, one);
    await expectEnded(a.id, two);
    expect((await a.get("/v1/me")).status).toBe(200);
    expect((await keysOf(a.id)).length).toBe(1);
  });

  it("log out everywhere", async () => {
    const a = await user();
    const one = await device(a);
    await a.get("/v1/logout?all=1");
    await expectEnded(a.id, one);
    expect(await keysOf(a.id)).toEqual([]);
  });

  it("a password change ends every session and rotates the changer's own", async () => {
    const a = await user();
    const one = await device(a);
    const own = {
      cookie: a.cookie as string,
      token: a.token as string,
      sid: (await keysOf(a.id)).find((id) => id !== one.sid) as string,
    };
    const res = await a.patch("/v1/users/password", { password: a.password, new_password: "changed1" });
    expect(res.status).toBe(200);
    await expectEnded(a.id, one);
    await expectEnded(a.id, own);
    // The changer carries on in a new session.
    expect(await keysOf(a.id)).toHaveLength(1);
    a.token = res.body.token;
    expect((await a.get("/v1/me")).status).toBe(200);
  });

  it("a password reset ends every session", async () => {
    const a = await user();
    const one = await device(a);
    await new Client().post("/v1/password/forgot", { email: a.email });
    const token = tokenIn(await mailTo(a.email, /Reset/), "/reset");
    expect((await new Client().post("/v1/password/reset", { token, password: "changed1" })).status).toBe(200);
    await expectEnded(a.id, one);
    expect(await keysOf(a.id)).toEqual([]);
  });

  it("a suspension ends every session of the suspended person", async () => {
    const [a, mod] = [await user(), await user()];
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const one = await device(a);
    const res = await mod.post("/v1/moderation/actions", { kind: "user", id: a.id, action: "suspend", reason: "Spam" });
    expect(res.status).toBe(200);
    await expectEnded(a.id, one);
    expect(await keysOf(a.id)).toEqual([]);
  });

  it("deleting the account ends every session", async () => {
    const a = await user();
    const one = await device(a);
    expect((await a.request("DELETE", "/v1/users", { password: a.password })).status).toBe(200);
    await expectEnded(a.id, one);
    expect(await keysOf(a.id)).toEqual([]);
  });

  it("a session past its expiry is not accepted even before KV drops it", async () => {
    const a = await user();
    const [sid] = await keysOf(a.id);
    const key = `session:${a.id}:${sid}`;
    const stored = JSON.parse((await env.SESSIONS.get(key)) as string);
    await env.SESSIONS.put(key, JSON.stringify({ ...stored, expires: Date.now() - 1 }));
    expect((await a.get("/v1/me")).status).toBe(401);
  });
});
