// Issue 14: readiness, read replicas (D1 Sessions API with a bookmark), request logs, and the worker
// refusing to serve with bad configuration (issue 20, finding 7). These call the same app as
// tests/http.ts, with bindings changed per test where the test needs a broken or production environment.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { meterFromHeader, tripsOf } from "../../worker/db/meter";
import { BOOKMARK_COOKIE, BOOKMARK_HEADER } from "../../worker/db/replicas";
import type { Env } from "../../worker/env";
import { user, visitor } from "../factories";
import { callWith as call } from "../http";
import { appToken } from "../mastodon";
import { PRODUCTION_ENV } from "../prod-env";

/** env.DB recording where each request's D1 session starts. */
function recordingDB() {
  const starts: (string | undefined)[] = [];
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "withSession") {
        return (arg?: string) => {
          starts.push(arg);
          return target.withSession(arg);
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { DB, starts };
}

const bookmarkCookie = (res: Response) => res.headers.getSetCookie().find((s) => s.startsWith(`${BOOKMARK_COOKIE}=`));

afterEach(() => vi.restoreAllMocks());

describe("GET /v1/health/ready", () => {
  it("touches D1, R2 and the sessions' KV and answers ok for each; /v1/health stays the no-op floor", async () => {
    const ready = await visitor().get("/v1/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ d1: "ok", r2: "ok", kv: "ok" });
    expect(tripsOf(ready.headers.get("server-timing"))).toBe(1);
    const floor = await visitor().get("/v1/health");
    expect(floor.body).toEqual({ ok: true });
    expect(tripsOf(floor.headers.get("server-timing"))).toBe(0);
  });

  it("answers 503 naming the binding that fails, and logs the error without showing it", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((s: unknown) => void errors.push(String(s)));
    const noR2 = { head: () => Promise.reject(new Error("R2 is down at 10.0.0.7")) } as unknown as R2Bucket;
    const res = await call({ IMAGES: noR2 }, "/v1/health/ready");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: "not_ready", message: "Not ready: r2", d1: "ok", r2: "failed", kv: "ok" });
    expect(errors.map((e) => JSON.parse(e))).toContainEqual({
      t: "not_ready",
      binding: "r2",
      error: "R2 is down at 10.0.0.7",
    });

    const noD1 = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === "withSession") {
          return () => ({
            prepare: () => ({ first: () => Promise.reject(new Error("D1 is down")) }),
            getBookmark: () => null,
          });
        }
        return Reflect.get(target, prop, target);
      },
    });
    const both = await call({ DB: noD1, IMAGES: noR2 }, "/v1/health/ready");
    expect(both.status).toBe(503);
    expect(await both.json()).toMatchObject({ message: "Not ready: d1, r2", d1: "failed", r2: "failed" });
  });
});

describe("read replicas: D1 sessions carry the person's bookmark", () => {
  it("a write starts at the primary and hands out a bookmark; the next request starts from it and reads the write", async () => {
    const a = await user();
    const { DB, starts } = recordingDB();
    const auth = { authorization: `Bearer ${a.token}`, "content-type": "application/json" };
    const wrote = await call({ DB }, "/v1/notes", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ label: "idea", content: "<p>mine</p>" }),
    });
    expect(wrote.status).toBe(201);
    const id = ((await wrote.json()) as { note: { id: number } }).note.id;
    const bookmark = wrote.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toBeTruthy();
    // Pages and the browser's own API calls get it as a cookie.
    expect(bookmarkCookie(wrote)).toBe(`${BOOKMARK_COOKIE}=${bookmark}; Path=/; Max-Age=300; HttpOnly; SameSite=Lax`);
    expect(starts).toEqual(["first-primary"]);

    // Second request, header in: the D1 session starts at the bookmark and the note is there.
    const read = await call({ DB }, `/v1/notes/${a.username}/${id}`, {
      headers: { authorization: `Bearer ${a.token}`, [BOOKMARK_HEADER]: bookmark as string },
    });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { content: string }).content).toContain("mine");
    expect(starts[1]).toBe(bookmark);
    expect((read.headers.get(BOOKMARK_HEADER) ?? "") >= (bookmark as string)).toBe(true);
    // A read that wrote nothing sets no cookie (visitor pages stay cacheable).
    expect(read.headers.getSetCookie()).toEqual([]);

    // The cookie works the same; no bookmark, or a malformed one, reads from the nearest replica.
    const viaCookie = await call({ DB }, `/v1/notes/${a.username}/${id}`, {
      headers: { cookie: `${BOOKMARK_COOKIE}=${bookmark}` },
    });
    expect(viaCookie.status).toBe(200);
    await call({ DB }, `/v1/notes/${a.username}/${id}`);
    const junk = await call({ DB }, `/v1/notes/${a.username}/${id}`, { headers: { [BOOKMARK_HEADER]: "x'; drop" } });
    expect(junk.status).toBe(200);
    expect(starts.slice(2)).toEqual([bookmark, "first-unconstrained", "first-unconstrained"]);
  });

  it("a Mastodon app gets the bookmark too: its next request carrying it reads the status it just wrote", async () => {
    const a = await user();
    const { token } = await appToken(a, "read write");
    const { DB, starts } = recordingDB();
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const wrote = await call({ DB }, "/api/v1/statuses", {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ status: "from my app" }),
    });
    expect(wrote.status).toBe(200);
    const bookmark = wrote.headers.get(BOOKMARK_HEADER);
    expect(bookmark).toBeTruthy();
    // Browser apps may read it (CORS), and an app never gets a cookie.
    expect(wrote.headers.get("access-control-expose-headers")?.toLowerCase()).toContain(BOOKMARK_HEADER);
    expect(wrote.headers.getSetCookie()).toEqual([]);
    const id = ((await wrote.json()) as { id: string }).id;
    const read = await call({ DB }, `/api/v1/statuses/${id}`, {
      headers: { authorization: `Bearer ${token}`, [BOOKMARK_HEADER]: bookmark as string },
    });
    expect(read.status).toBe(200);
    expect(starts).toEqual(["first-primary", bookmark]);
  });

  it("log out writes nothing to D1 (sessions are in KV): no bookmark cookie, and the session is gone at once", async () => {
    const a = await user();
    const { DB } = recordingDB();
    const out = await call({ DB }, "/v1/logout", { headers: { cookie: a.cookie as string } });
    expect(out.status).toBe(200);
    expect(meterFromHeader(out.headers.get("server-timing")).written).toBe(0);
    expect(bookmarkCookie(out)).toBeUndefined();
    expect((await call({ DB }, "/v1/refresh", { headers: { cookie: a.cookie as string } })).status).toBe(401);
  });
});

describe("the D1 meter's Server-Timing is sent only under APP_ENV=local", () => {
  it("production answers carry no Server-Timing: rows read must not tell anyone about another person's data", async () => {
    const a = await user();
    const forged = `notex_sid=${a.id}.${"x".repeat(43)}`;
    for (const [path, headers] of [
      ["/v1/health/ready", {}],
      [`/v1/users/${a.username}`, {}],
      [`/probe?v=${Date.now()}`, { cookie: forged }],
      ["/v1/me", { cookie: forged }],
    ] as [string, Record<string, string>][]) {
      const res = await call(PRODUCTION_ENV, path, { headers });
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("server-timing"), path).toBeNull();
    }
    // Locally (tests, bench, development) the meter is there.
    expect(tripsOf((await call({}, `/v1/users/${a.username}`)).headers.get("server-timing"))).toBe(1);
  });
});

describe("structured request logs", () => {
  it("writes one JSON line per request: id, route, status, ms and the D1 trips Server-Timing reports", async () => {
    const a = await user();
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((s: unknown) => void lines.push(String(s)));
    const res = await call({ REQUEST_LOG: "1" }, `/v1/users/${a.username}`, { headers: { "cf-ray": "8f00ray-LHR" } });
    expect(res.status).toBe(200);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({
      t: "req",
      id: "8f00ray-LHR",
      method: "GET",
      route: "/v1/users/:username",
      path: `/v1/users/${a.username}`,
      status: 200,
      d1: tripsOf(res.headers.get("server-timing")),
    });
    expect(line.ms).toBeGreaterThanOrEqual(0);
    // Off under APP_ENV=local unless asked for.
    await call({}, "/v1/health");
    expect(lines).toHaveLength(1);
  });
});

describe("configuration outside APP_ENV=local (issue 20, finding 7)", () => {
  it("serves with sound vars and secrets, and logs every request", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect((await call(PRODUCTION_ENV, "/v1/health")).status).toBe(200);
    expect(
      (await call({ ...PRODUCTION_ENV, UPLOAD_MODE: "local", R2_S3_ENDPOINT: undefined }, "/v1/health")).status,
    ).toBe(200);
  });

  it.each([
    [{ TOKEN_SECRET: "" }, "TOKEN_SECRET is not set"],
    [{ TOKEN_SECRET: undefined }, "TOKEN_SECRET is not set"],
    [{ UPLOAD_SECRET: "u".repeat(31) }, "UPLOAD_SECRET is shorter than 32 bytes"],
    [{ TOKEN_SECRET: "local-dev-token-secret-change-me-0123456789" }, "TOKEN_SECRET is an example value"],
    [{ TOKEN_SECRET: "test-token-secret-0123456789abcdef" }, "TOKEN_SECRET is an example value"],
    [{ GOOGLE_CLIENT_SECRET: "local-secret" }, "GOOGLE_CLIENT_SECRET is an example value"],
    [{ R2_SECRET_ACCESS_KEY: undefined }, "R2_SECRET_ACCESS_KEY is not set"],
    [{ APP_ORIGIN: undefined }, "APP_ORIGIN is not set"],
    [{ APP_ORIGIN: "http://notex.test" }, "APP_ORIGIN is not an https origin"],
    [{ MAIL_FROM: "NoteX <no-reply@REPLACE_WITH_YOUR_DOMAIN>" }, "MAIL_FROM is a placeholder"],
  ])("refuses every request with 503 misconfigured when %o, and logs why", async (patch, problem) => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((s: unknown) => void errors.push(String(s)));
    vi.spyOn(console, "log").mockImplementation(() => {});
    for (const path of ["/v1/health", "/v1/notes", "/"]) {
      const res = await call({ ...PRODUCTION_ENV, ...patch } as Partial<Env>, path);
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe("misconfigured");
      expect(body.message).toContain(problem);
    }
    expect(errors.join("\n")).toContain(problem);
  });

  it("never names a secret's value in the answer or the log", async () => {
    const errors: string[] = [];
    vi.spyOn(console, "error").mockImplementation((s: unknown) => void errors.push(String(s)));
    const short = "sh0rt-s3cret-value";
    const res = await call({ ...PRODUCTION_ENV, TOKEN_SECRET: short }, "/v1/health");
    expect(res.status).toBe(503);
    expect(await res.text()).not.toContain(short);
    expect(errors.join("\n")).not.toContain(short);
  });
});

describe("presigned uploads (UPLOAD_MODE=s3)", () => {
  it("a note can keep an image the browser PUT straight to R2 once the object is there", async () => {
    const a = await user();
    const s3 = {
      UPLOAD_MODE: "s3",
      R2_S3_ENDPOINT: "https://acct.r2.cloudflarestorage.com/notex-images",
      R2_ACCESS_KEY_ID: "key",
      R2_SECRET_ACCESS_KEY: "secret",
    };
    const headers = { authorization: `Bearer ${a.token}`, "content-type": "application/json" };
    const res = await call(s3, "/v1/notes", {
      method: "POST",
      headers,
      body: JSON.stringify({ label: "idea", content: "<p>pic</p>", uploads: [{ file_size: 10, file_ext: "png" }] }),
    });
    expect(res.status).toBe(201);
    const { note, uploads } = (await res.json()) as {
      note: { id: number };
      uploads: { key: string; put_link: string; file_url: string }[];
    };
    expect(uploads[0].put_link).toContain("X-Amz-Signature");
    const edit = () =>
      call(s3, "/v1/notes", {
        method: "PATCH",
        headers,
        body: JSON.stringify({
          id: note.id,
          label: "idea",
          content: "<p>pic, edited</p>",
          imgs: [uploads[0].file_url],
        }),
      });
    // Not uploaded yet: refused.
    expect((await edit()).status).toBe(422);
    // The browser's PUT to the presigned URL lands in the bucket without the worker seeing it.
    await env.IMAGES.put(uploads[0].key, "png");
    const edited = await edit();
    expect(edited.status, await edited.clone().text()).toBe(200);
    const row = await env.DB.prepare("select uploaded_at from uploads where key = ?").bind(uploads[0].key).first();
    expect(row?.uploaded_at).toBeGreaterThan(0);
  });
});
