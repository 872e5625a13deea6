// A page's session is read from KV before its loaders run (worker/app.ts, lib/session.ts
// pageSession): a signed-in page's D1 work is only its own reads, and a cookie that names no live
// session (ended, or forged from someone's account id) is one KV miss and a visitor's page.
// Through the real middleware, with the stand-in page of tests/worker.ts (it reads the username
// of whoever the session names, or nothing, in one D1 trip).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { meterFromHeader } from "../../worker/db/meter";
import { randomToken } from "../../worker/lib/secret";
import { user, visitor } from "../factories";

let seq = 0;
const fresh = () => `/probe?v=${Date.now()}-${seq++}`;
const secretOf = (cookie: string | null | undefined) => (cookie ?? "").split("=")[1];
const sessionKeys = async (uid: number) => (await env.SESSIONS.list({ prefix: `session:${uid}:` })).keys;

describe("a page reads its session from KV before the loaders run", () => {
  it("a signed-in page costs one D1 round trip, its own read: no session row in D1", async () => {
    const a = await user();
    const res = await a.get(fresh());
    expect(res.body).toBe(`<p>signed in as ${a.username}</p>`);
    expect(meterFromHeader(res.headers.get("server-timing")).trips).toBe(1);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    // The session is a KV key named by the hash of the cookie's secret; the secret is stored nowhere.
    const keys = await sessionKeys(a.id);
    expect(keys.length).toBe(1);
    expect(JSON.stringify(keys)).not.toContain(secretOf(a.cookie).split(".")[1]);
    const tables = await env.DB.prepare("select name from sqlite_master where name = 'sessions'").all();
    expect(tables.results).toEqual([]);
  });

  it("a session whose KV key is gone is answered as a visitor, and its cookie is dropped", async () => {
    const a = await user();
    expect((await a.get(fresh())).body).toBe(`<p>signed in as ${a.username}</p>`);
    for (const k of await sessionKeys(a.id)) await env.SESSIONS.delete(k.name);
    const res = await a.get(fresh());
    expect(res.status).toBe(200);
    expect(res.body).toBe("<p>signed in as visitor</p>");
    // The dead cookie is dropped, so the next page is a visitor's without trying it again.
    expect(res.headers.get("set-cookie") ?? "").toMatch(/notex_sid=; Max-Age=0; Path=\/; HttpOnly/);
  });

  it("the account id cannot be swapped: it is part of the secret the session is found by", async () => {
    const a = await user();
    const b = await user();
    const secret = secretOf(a.cookie);
    expect(secret.startsWith(`${a.id}.`)).toBe(true);
    const swapped = secret.replace(`${a.id}.`, `${b.id}.`);
    const res = await visitor().get(fresh(), { cookie: `notex_sid=${swapped}` });
    expect(res.body).toBe("<p>signed in as visitor</p>");
    // And the real one still works.
    expect((await visitor().get(fresh(), { cookie: `notex_sid=${secret}` })).body).toBe(
      `<p>signed in as ${a.username}</p>`,
    );
  });

  it("a forged cookie naming someone's account costs a visitor's page and nothing of theirs", async () => {
    const a = await user();
    const asVisitor = await visitor().get(fresh());
    for (const forged of [`${a.id}.${randomToken()}`, `${a.id}.junk`, `${a.id}`, "x".repeat(101)]) {
      const res = await visitor().get(fresh(), { cookie: `notex_sid=${forged}` });
      expect(res.status, forged).toBe(200);
      expect(res.body, forged).toBe("<p>signed in as visitor</p>");
      // The same D1 work as a visitor's page: nothing was read for the person the cookie names.
      expect(meterFromHeader(res.headers.get("server-timing")), forged).toMatchObject({
        trips: meterFromHeader(asVisitor.headers.get("server-timing")).trips,
        read: meterFromHeader(asVisitor.headers.get("server-timing")).read,
      });
    }
    // The API answers it as no one: 401 where a session is needed, and no D1 read at all.
    for (const path of ["/v1/me", "/v1/notifications?page=1", "/v1/bookmarks?t=note&page=1"]) {
      const res = await visitor().get(path, { cookie: `notex_sid=${a.id}.${randomToken()}` });
      expect(res.status, path).toBe(401);
      expect(meterFromHeader(res.headers.get("server-timing")).trips, path).toBe(0);
    }
  });
});
