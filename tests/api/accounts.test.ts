import { env } from "cloudflare:test";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { decodeJWT } from "@oslojs/jwt";
import { describe, expect, it } from "vitest";
import { Client } from "../http";
import { user, visitor } from "../factories";

const signup = (c: Client, body: Record<string, unknown>) => c.post("/v1/signup", body);
const valid = () => {
  const u = `ada${Math.random().toString(36).slice(2, 9)}`;
  return { email: `${u}@Example.COM`, name: "ada  lovelace", username: ` ${u.toUpperCase()} `, password: "secret1" };
};
const count = async (table: string) =>
  (await env.DB.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())?.n ?? 0;

describe("POST /v1/signup", () => {
  it("creates the account, trims and lowercases the username, capitalises the name, normalises the email", async () => {
    const c = new Client();
    const body = valid();
    const res = await signup(c, body);
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^ey/);
    expect(res.body.user.username).toBe(body.username.trim().toLowerCase());
    expect(res.body.user.fullname).toBe("Ada Lovelace");
    expect(res.body.user.email).toBe(body.email.toLowerCase());
    expect(JSON.parse(res.body.user.jstats)).toEqual({ following: 0, follower: 0, note: 0, noti: 0, invitation: 0 });
    const cookie = res.headers.get("set-cookie") ?? "";
    // The secret starts with the account id (its KV key is under the account: lib/sessions.ts), then 256 random bits.
    expect(cookie).toMatch(new RegExp(`notex_sid=${res.body.user.id}\\.[\\w-]{43};`));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    // The stored hash is versioned and salted, never the password.
    const row = await env.DB.prepare("select password_hash from users where id = ?")
      .bind(res.body.user.id)
      .first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    ["username missing", { username: undefined }, "username", "username is required"],
    ["username empty", { username: "  " }, "username", "username is required"],
    ["username short", { username: "abcd" }, "username", "username must be at least 5 characters"],
    ["username long", { username: `a${"b".repeat(34)}` }, "username", "username must be less than 35 characters"],
    ["username digit first", { username: "1abcde" }, "username", "first character must be a letter (a-z)"],
    [
      "username charset",
      { username: "abc-def" },
      "username",
      "username must contain only alphanumeric and underscore characters",
    ],
    ["username reserved", { username: "settings" }, "username", "username is already taken"],
    ["username brand", { username: "NoteXApp" }, "username", "username is already taken"],
    ["password missing", { password: undefined }, "password", "password is required"],
    ["password short", { password: "ab1" }, "password", "password must be at least 6 characters"],
    ["password long", { password: `a1${"x".repeat(43)}` }, "password", "password must be less than 45 characters"],
    ["password no letter", { password: "1234567" }, "password", "password must contain at least 1 letter (a-z)"],
    ["password no digit", { password: "abcdefg" }, "password", "password must contain at least 1 number (0-9)"],
    ["email missing", { email: "" }, "email", "email is required"],
    ["email invalid", { email: "ada@" }, "email", "email is not valid"],
    ["name missing", { name: "   " }, "name", "name is required"],
    ["name long", { name: "a".repeat(36) }, "name", "name must be less than 35 character"],
  ];
  it.each(cases)("refuses %s with the spec's message and changes nothing", async (_n, patch, field, message) => {
    const before = await count("users");
    const res = await signup(new Client(), { ...valid(), ...patch });
    expect(res.status).toBe(422);
    expect(res.body.fields[field]).toBe(message);
    expect(await count("users")).toBe(before);
  });

  it("accepts the limits exactly: 5 and 34 character usernames, 6 and 44 character passwords, 35 character names", async () => {
    for (const [username, password, name] of [
      [`a${Math.random().toString(36).slice(2, 6)}`, "abcde1", "n".repeat(35)],
      [`b${Math.random().toString(36).slice(2, 12)}${"c".repeat(23)}`, `a1${"x".repeat(42)}`, "Bo"],
    ]) {
      const res = await signup(new Client(), { email: `${username}@x.io`, name, username, password });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });

  it("answers 409 for a taken username, whatever its case", async () => {
    const a = await user();
    const res = await signup(new Client(), { ...valid(), username: a.username.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("Username already exists. Please choose another.");
  });

  it("refuses a second account on the same email", async () => {
    const a = await user();
    const res = await signup(new Client(), { ...valid(), email: a.email.toUpperCase() });
    expect(res.status).toBe(409);
  });

  it("answers 400 for malformed JSON and 413 for a body over 1 MB, creating nothing", async () => {
    const before = await count("users");
    expect((await new Client().post("/v1/signup", "{not json")).status).toBe(400);
    expect((await new Client().post("/v1/signup", "[1,2]")).status).toBe(400);
    expect((await new Client().post("/v1/signup", { ...valid(), pad: "x".repeat(1_100_000) })).status).toBe(413);
    expect((await new Client().post("/v1/signup", { email: 1, name: [], username: {}, password: null })).status).toBe(
      422,
    );
    expect(await count("users")).toBe(before);
  });
});

describe("POST /v1/login", () => {
  it("logs in by username (any case) or email and answers token and user", async () => {
    const a = await user();
    for (const username of [a.username.toUpperCase(), a.email]) {
      const res = await new Client().post("/v1/login", { username, password: a.password });
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(a.id);
      expect(res.body.token).toBeTruthy();
    }
  });

  it("answers 401 with the spec's text for a wrong password or unknown user", async () => {
    const a = await user();
    for (const body of [
      { username: a.username, password: "wrong123" },
      { username: "nobody_here", password: "secret1" },
    ]) {
      const res = await new Client().post("/v1/login", body);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Username or password is incorrect.");
    }
  });

  it("answers 422 with field messages when fields are missing", async () => {
    const res = await new Client().post("/v1/login", {});
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("Invalid username or password.");
    expect(res.body.fields).toEqual({ username: "username is required", password: "password is required" });
  });

  it("issues a new session id on every login (no fixation)", async () => {
    const a = await user();
    const c = new Client();
    c.cookie = a.cookie;
    await c.post("/v1/login", { username: a.username, password: a.password });
    expect(c.cookie).toBeTruthy();
    expect(c.cookie).not.toBe(a.cookie);
  });
});

describe("sessions", () => {
  it("/v1/me answers the user for a bearer token or the cookie, and 401 for a visitor", async () => {
    const a = await user();
    const byToken = new Client();
    byToken.token = a.token;
    expect((await byToken.get("/v1/me")).body.id).toBe(a.id);
    const byCookie = new Client();
    byCookie.cookie = a.cookie;
    expect((await byCookie.get("/v1/me")).body.id).toBe(a.id);
    expect((await visitor().get("/v1/me")).status).toBe(401);
  });

  it("refuses forged, tampered and expired bearer tokens", async () => {
    const a = await user();
    const c = new Client();
    const [h, p] = (a.token as string).split(".");
    for (const token of [
      "nonsense",
      `${h}.${p}.AAAA`,
      `${h}.${encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify({ sub: 1, sid: "x", exp: 9e9 })))}.sig`,
    ]) {
      c.token = token;
      expect((await c.get("/v1/me")).status).toBe(401);
    }
    const { sign } = await import("hono/jwt");
    c.token = await sign({ sub: a.id, sid: "x", exp: Math.floor(Date.now() / 1000) - 10 }, env.TOKEN_SECRET, "HS256");
    expect((await c.get("/v1/me")).status).toBe(401);
  });

  it("refuses a token once it expires, though it worked a moment before", async () => {
    const a = await user();
    const claims = decodeJWT(a.token as string);
    const { sign } = await import("hono/jwt");
    const c = new Client();
    const exp = Math.floor(Date.now() / 1000) + 2;
    c.token = await sign({ ...claims, exp }, env.TOKEN_SECRET, "HS256");
    expect((await c.get("/v1/me")).status).toBe(200);
    await new Promise((r) => setTimeout(r, exp * 1000 - Date.now() + 50));
    expect((await c.get("/v1/me")).status).toBe(401);
  });

  it("refresh answers a fresh token from the cookie; logout ends the session", async () => {
    const a = await user();
    const c = new Client();
    c.cookie = a.cookie;
    const r = await c.get("/v1/refresh");
    expect(r.status).toBe(200);
    c.token = r.body.token;
    expect((await c.get("/v1/me")).status).toBe(200);
    const out = await c.get("/v1/logout");
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/notex_sid=;/);
    const stale = new Client();
    stale.cookie = a.cookie;
    expect((await stale.get("/v1/refresh")).status).toBe(401);
    expect((await stale.get("/v1/me")).status).toBe(401);
    expect((await visitor().get("/v1/refresh")).status).toBe(401);
  });

  it("logout everywhere (?all=1) revokes every token and session of the account at once", async () => {
    const a = await user();
    const other = new Client();
    other.token = (await other.post("/v1/login", { username: a.username, password: a.password })).body.token;
    await a.get("/v1/logout?all=1");
    expect((await other.get("/v1/me")).status).toBe(401);
    expect((await other.get("/v1/refresh")).status).toBe(401);
  });

  it("a revoked token reads nothing, whatever the route reads", async () => {
    const a = await user();
    await a.post("/v1/notes", { label: "idea", content: "<p>mine #revoked</p>" });
    const other = new Client();
    other.token = (await other.post("/v1/login", { username: a.username, password: a.password })).body.token;
    const reads = [
      "/v1/discover?page=1",
      "/v1/feeds?page=1",
      `/v1/notes?uid=${a.id}&page=1`,
      "/v1/tags/revoked?page=1",
      "/v1/notifications?page=1",
      "/v1/bookmarks?t=note&page=1",
    ];
    for (const path of reads) expect((await other.get(path)).status, path).toBe(200);
    await a.get("/v1/logout?all=1");
    for (const path of reads) {
      const res = await other.get(path);
      expect(res.status, path).toBe(401);
      expect(res.body.notes ?? res.body.notis, path).toBeUndefined();
    }
  });

  it("a revoked token writes nothing, whatever the route writes", async () => {
    const [a, b] = [await user(), await user()];
    const note = (await b.post("/v1/notes", { label: "idea", content: "<p>not for revoked</p>" })).body.note.id;
    const other = new Client();
    other.token = (await other.post("/v1/login", { username: a.username, password: a.password })).body.token;
    expect((await other.get(`/v1/notes/${note}`)).status).toBe(200);
    await a.get("/v1/logout?all=1");
    const writes = [
      () => other.post(`/v1/likes/${note}?t=note`),
      () => other.post(`/v1/follows/${b.id}`),
      () => other.post(`/v1/bookmarks/${note}?t=note`),
      () => other.post("/v1/notes", { label: "idea", content: "<p>written after logout</p>" }),
      () => other.post("/v1/replies", { parent: -note, content: "<p>reply after logout</p>" }),
      () => other.patch("/v1/users", { name: "Revoked", descr: "" }),
    ];
    for (const write of writes) expect((await write()).status).toBe(401);
    expect((await other.get(`/v1/notes/${note}`)).status).toBe(401);
    const after = (await b.get(`/v1/notes/${note}`)).body;
    expect([after.likenum, after.repnum]).toEqual([0, 0]);
    const profile = (await b.get(`/v1/users/${a.username}`)).body;
    expect([profile.stats.note, profile.stats.following]).toEqual([0, 0]);
    expect(profile.fullname).not.toBe("Revoked");
  });

  it("refuses a cross-origin write that carries the cookie (CSRF)", async () => {
    const a = await user();
    const c = new Client();
    c.cookie = a.cookie;
    const res = await c.patch("/v1/users/email", { email: "evil@x.io" }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    const site = await c.patch("/v1/users/email", { email: "evil@x.io" }, { "sec-fetch-site": "cross-site" });
    expect(site.status).toBe(403);
    expect((await a.get("/v1/me")).body.email).toBe(a.email);
  });
});

describe("GET /v1/users/{username}", () => {
  it("answers the public profile with counters, without the email", async () => {
    const a = await user();
    const res = await visitor().get(`/v1/users/${a.username.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id, username: a.username, me: false, following: false });
    expect(res.body.email).toBeUndefined();
    expect((await a.get(`/v1/users/${a.username}`)).body.me).toBe(true);
    expect((await visitor().get("/v1/users/nobody_at_all")).status).toBe(404);
  });
});

describe("settings", () => {
  it("changes the username; a taken one is 409, an invalid one 422, an unchanged one changes nothing", async () => {
    const [a, b] = [await user(), await user()];
    const fresh = `n${Math.random().toString(36).slice(2, 10)}`;
    expect((await a.patch("/v1/users/username", { username: fresh })).body.username).toBe(fresh);
    const taken = await a.patch("/v1/users/username", { username: b.username.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("username is taken");
    const bad = await a.patch("/v1/users/username", { username: "9lives" });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.username).toBe("first character must be a letter (a-z)");
    const same = await a.patch("/v1/users/username", { username: fresh });
    expect(same.status).toBe(200);
    expect((await a.get("/v1/me")).body.username).toBe(fresh);
  });

  it("asks to change the email (normalised, pending until confirmed); an invalid one is 422", async () => {
    const a = await user();
    const fresh = `new${Math.random().toString(36).slice(2, 8)}@Mail.IO`;
    const res = await a.patch("/v1/users/email", { email: `  ${fresh} `, password: a.password });
    expect(res.body.email).toBe(a.email);
    expect(res.body.pending_email).toBe(fresh.toLowerCase());
    const bad = await a.patch("/v1/users/email", { email: "nope" });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.email).toBe("email is not valid");
  });

  it("changes the password: wrong current is 401, weak new is 422, success ends every session and rotates this one", async () => {
    const a = await user();
    const oldCookie = a.cookie;
    const other = new Client();
    other.token = (await other.post("/v1/login", { username: a.username, password: a.password })).body.token;
    const wrong = await a.patch("/v1/users/password", { password: "nottheone1", new_password: "another1" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("current password is not correct.");
    const missing = await a.patch("/v1/users/password", { new_password: "another1" });
    expect(missing.body.fields.password).toBe("current password is required");
    const weak = await a.patch("/v1/users/password", { password: a.password, new_password: "short" });
    expect(weak.status).toBe(422);
    expect(weak.body.fields.new_password).toBe("password must be at least 6 characters");
    const ok = await a.patch("/v1/users/password", { password: a.password, new_password: "another1" });
    expect(ok.status).toBe(200);
    a.token = ok.body.token;
    expect((await a.get("/v1/me")).status).toBe(200);
    expect((await other.get("/v1/me")).status).toBe(401);
    // The changer's own session is a new one: whoever held the old cookie holds nothing now.
    expect(a.cookie).not.toBe(oldCookie);
    const thief = new Client();
    thief.cookie = oldCookie;
    expect((await thief.get("/v1/me")).status).toBe(401);
    const fresh = new Client();
    fresh.cookie = a.cookie;
    expect((await fresh.get("/v1/me")).status).toBe(200);
    expect((await new Client().post("/v1/login", { username: a.username, password: a.password })).status).toBe(401);
    expect((await new Client().post("/v1/login", { username: a.username, password: "another1" })).status).toBe(200);
  });

  it.each([
    ["PATCH", "/v1/users/username", { username: "someone1" }],
    ["PATCH", "/v1/users/email", { email: "a@b.co" }],
    ["PATCH", "/v1/users/password", { password: "x", new_password: "abcdef1" }],
    ["GET", "/v1/me", undefined],
  ])("refuses a visitor: %s %s → 401", async (method, path, body) => {
    expect((await visitor().request(method, path, body)).status).toBe(401);
  });
});

describe("rate limits", () => {
  it("answers 429 with the spec's text when one address bursts logins", async () => {
    const c = new Client();
    let last = 0;
    let message = "";
    for (let i = 0; i < 80 && last !== 429; i++) {
      const res = await c.post("/v1/login", { username: `nobody${i}`, password: "secret1" });
      last = res.status;
      message = res.body.message;
    }
    expect(last).toBe(429);
    expect(message).toBe("Too many requests, please try again.");
  });
});
