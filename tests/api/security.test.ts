import { describe, expect, it } from "vitest";
import { Client, type Res } from "../http";
import { type TestUser, user, visitor } from "../factories";

describe("CSRF (issue 8 §5)", () => {
  it.each(["POST", "PATCH", "PUT", "DELETE"])("refuses a cross-origin %s to pages and API alike", async (method) => {
    const a = await user();
    for (const path of ["/settings", "/logout", "/v1/users/email", "/v1/notes"]) {
      const res = await a.request(method, path, { email: "x@y.zz" }, { origin: "https://evil.example" });
      expect(res.status, `${method} ${path}`).toBe(403);
      const site = await a.request(method, path, { email: "x@y.zz" }, { "sec-fetch-site": "cross-site" });
      expect(site.status, `${method} ${path}`).toBe(403);
      const nul = await a.request(method, path, {}, { origin: "null" });
      expect(nul.status, `${method} ${path} Origin: null`).toBe(403);
    }
  });

  it("lets same-origin browser writes through", async () => {
    const a = await user();
    const res = await a.patch(
      "/v1/users/email",
      { email: `${a.username}@new.example` },
      { origin: "http://notex.test", "sec-fetch-site": "same-origin" },
    );
    expect(res.status).toBe(200);
  });
});

describe("headers (issue 8 §4)", () => {
  it("API answers are private and nosniff; HSTS only outside local", async () => {
    const res = await new Client().get("/v1/health");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("rate limits (issue 8 §7)", () => {
  const TOO_MANY = "Too many requests, please try again.";

  /** Repeats a call until it answers 429 (or gives up); returns the last answer and how many got through. */
  async function burst(call: (i: number) => Promise<Res>, max = 120) {
    let last: Res = { status: 0, body: null, headers: new Headers() };
    let ok = 0;
    for (let i = 0; i < max; i++) {
      last = await call(i);
      if (last.status === 429) break;
      ok++;
    }
    return { last, ok };
  }

  it("bursts of like, bookmark, renote, reply, note and follow answer 429 with the spec's text; other users unaffected", async () => {
    const [author, bystander] = [await user(), await user()];
    const note = (await author.post("/v1/notes", { label: "tip", content: "<p>limit me</p>" })).body.note.id;
    const writes: Record<string, (u: TestUser, i: number) => Promise<Res>> = {
      like: (u, i) => (i % 2 ? u.delete(`/v1/likes/${note}?t=note`) : u.post(`/v1/likes/${note}?t=note`)),
      bookmark: (u, i) => (i % 2 ? u.delete(`/v1/bookmarks/${note}?t=note`) : u.post(`/v1/bookmarks/${note}?t=note`)),
      renote: (u) => u.post("/v1/renotes", { renote_id: note, content: "" }),
      reply: (u, i) => u.post("/v1/replies", { parent: -note, content: `<p>r${i}</p>` }),
      note: (u, i) => u.post("/v1/notes", { label: "memo", content: `<p>n${i}</p>` }),
      follow: (u, i) => (i % 2 ? u.delete(`/v1/follows/${author.id}`) : u.post(`/v1/follows/${author.id}`)),
    };
    for (const [name, write] of Object.entries(writes)) {
      const u = await user();
      const { last, ok } = await burst((i) => write(u, i));
      expect(last.status, name).toBe(429);
      expect(last.body.message, name).toBe(TOO_MANY);
      // The budget is 60 writes per 10 s: a person writing by hand never meets it.
      expect(ok, name).toBeGreaterThanOrEqual(60);
    }
    expect((await bystander.post(`/v1/likes/${note}?t=note`)).status).toBe(200);
  });

  it("a burst of logins answers 429", async () => {
    const a = await user();
    const c = visitor();
    const { last, ok } = await burst(() => c.post("/v1/login", { username: a.username, password: "wrong-password" }));
    expect(last.status).toBe(429);
    expect(last.body.message).toBe(TOO_MANY);
    expect(ok).toBeGreaterThan(5);
  });

  it("normal use never meets a limit", async () => {
    const [a, b] = [await user(), await user()];
    const note = (await a.post("/v1/notes", { label: "tip", content: "<p>hello</p>" })).body.note.id;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await b.post(`/v1/likes/${note}?t=note`)).status);
      statuses.push((await b.delete(`/v1/likes/${note}?t=note`)).status);
      statuses.push((await b.post("/v1/replies", { parent: -note, content: `<p>hi ${i}</p>` })).status);
      statuses.push((await b.post(`/v1/bookmarks/${note}?t=note`)).status);
    }
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });
});
