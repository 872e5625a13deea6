// Issue 8 §7: bursts answer 429 with the spec's text, on every write route a script would hammer
// and on login; normal use never meets the limit. The pool enforces wrangler.toml's [[ratelimits]]
// (RL_WRITE 60 per 10 s per user, RL_AUTH 30 per 60 s per address and per account) with fixed
// windows (tests/bursts.ts). Per-address login and PATCH bursts: accounts.test.ts and security.test.ts.
import { describe, expect, it } from "vitest";
import { snapshot } from "../db-snapshot";
import { user, users } from "../factories";
import {
  AUTH_BUDGET,
  burst,
  fire,
  SEARCH_BUDGET,
  SEARCH_VISITOR_BUDGET,
  WRITE_BUDGET,
  WRITE_WINDOW_MS,
} from "../bursts";
import { Client, type Res } from "../http";

const windowOf = () => Math.floor(Date.now() / WRITE_WINDOW_MS);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("write bursts answer 429 on every route a script would hammer", () => {
  it("a mixed burst gets exactly the budget, then like, bookmark, renote, reply, note and follow all answer 429 and write nothing", {
    timeout: 120_000,
  }, async () => {
    const [owner, script] = await users(2);
    const noteId = (await owner.post("/v1/notes", { label: "idea", content: "<p>target</p>" })).body.note.id;
    const routes: [string, () => Promise<Res>][] = [
      ["like", () => script.post(`/v1/likes/${noteId}?t=note`)],
      ["bookmark", () => script.post(`/v1/bookmarks/${noteId}?t=note`)],
      ["renote", () => script.post("/v1/renotes", { renote_id: noteId, content: "" })],
      ["reply", () => script.post("/v1/replies", { parent: -noteId, content: "<p>again</p>" })],
      ["note", () => script.post("/v1/notes", { label: "idea", content: "<p>again</p>" })],
      ["follow", () => script.post(`/v1/follows/${owner.id}`)],
    ];
    // The whole burst must fall in one fixed window for the budget to be exact: start it just
    // after a window edge, and try again in the next window if the machine was too slow.
    for (let attempt = 0; ; attempt++) {
      await sleep(WRITE_WINDOW_MS - (Date.now() % WRITE_WINDOW_MS) + 50);
      const w = windowOf();
      const statuses = await fire(Array.from({ length: WRITE_BUDGET + 12 }, (_, i) => routes[i % routes.length][1]));
      const before = await snapshot();
      const after = await fire(routes.map(([, call]) => call));
      const changed = (await snapshot()) !== before;
      if (windowOf() !== w && attempt < 2) continue;
      expect(windowOf(), "the burst outlasted its window three times").toBe(w);
      expect(statuses.filter((s) => s === 200 || s === 201)).toHaveLength(WRITE_BUDGET);
      expect(statuses.filter((s) => s === 429)).toHaveLength(12);
      expect(Object.fromEntries(routes.map(([name], i) => [name, after[i]]))).toEqual(
        Object.fromEntries(routes.map(([name]) => [name, 429])),
      );
      // The limit answers before the handler: refused writes change nothing.
      expect(changed).toBe(false);
      break;
    }
    // The budget is the user's own: the owner still writes.
    expect((await owner.post(`/v1/likes/${noteId}?t=note`)).status).toBe(200);
  });
});

describe("normal use never meets the limit", () => {
  it("20 mixed writes in a row by one person all succeed", async () => {
    const [a, b] = await users(2);
    const noteId = (await b.post("/v1/notes", { label: "idea", content: "<p>hi</p>" })).body.note.id;
    const writes = [
      () => a.post(`/v1/likes/${noteId}?t=note`),
      () => a.post(`/v1/bookmarks/${noteId}?t=note`),
      () => a.post("/v1/renotes", { renote_id: noteId, content: "" }),
      () => a.post("/v1/replies", { parent: -noteId, content: "<p>nice</p>" }),
      () => a.post("/v1/notes", { label: "idea", content: "<p>mine</p>" }),
      () => a.post(`/v1/follows/${b.id}`),
      () => a.delete(`/v1/likes/${noteId}?t=note`),
      () => a.delete(`/v1/bookmarks/${noteId}?t=note`),
      () => a.delete(`/v1/renotes/${noteId}`),
      () => a.delete(`/v1/follows/${b.id}`),
    ];
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await writes[i % writes.length]()).status);
    expect(statuses.filter((s) => s >= 400)).toEqual([]);
  });

  it("a few logins (and a mistyped password) by one person all answer normally", async () => {
    const a = await user();
    const c = new Client();
    const statuses: number[] = [];
    statuses.push((await c.post("/v1/login", { username: a.username, password: "wrong-one" })).status);
    for (let i = 0; i < 5; i++)
      statuses.push((await c.post("/v1/login", { username: a.username, password: a.password })).status);
    expect(statuses).toEqual([401, 200, 200, 200, 200, 200]);
  });
});

describe("login bursts", () => {
  it("guessing one account's password from many addresses is limited per account too", {
    timeout: 120_000,
  }, async () => {
    const a = await user();
    // A fresh address for every guess, all at once: only the per-account budget can stop this.
    const answered = await burst(AUTH_BUDGET, (i) =>
      new Client().post("/v1/login", { username: a.username, password: `guess${i}` }),
    );
    expect(answered.filter((s) => s !== 401)).toEqual([]);
    // Other accounts, from any address, are unaffected.
    const b = await user();
    expect((await new Client().post("/v1/login", { username: b.username, password: b.password })).status).toBe(200);
  });

  it("the account's budget is one, whichever identifier names it (username or email, any case)", {
    timeout: 120_000,
  }, async () => {
    const a = await user();
    const guess = (username: string) => new Client().post("/v1/login", { username, password: "wrong-guess" });
    for (let attempt = 0; ; attempt++) {
      // Spend the budget through the username, then ask by the other spellings in the same window:
      // the username itself still refused proves the window has not turned meanwhile.
      await burst(AUTH_BUDGET, () => guess(a.username));
      const [byName, ...others] = await fire([
        () => guess(a.username),
        () => guess(a.email),
        () => guess(a.email.toUpperCase()),
        () => guess(` ${a.username.toUpperCase()} `),
      ]);
      if (byName !== 429 && attempt < 2) continue;
      expect(byName).toBe(429);
      expect(others).toEqual([429, 429, 429]);
      break;
    }
  });
});

describe("password reset requests", () => {
  it("an address's budget is one, however it is spelled", { timeout: 120_000 }, async () => {
    const a = await user();
    const ask = (email: string) => new Client().post("/v1/password/forgot", { email });
    for (let attempt = 0; ; attempt++) {
      await burst(AUTH_BUDGET, () => ask(a.email));
      const [same, ...others] = await fire([
        () => ask(a.email),
        () => ask(a.email.toUpperCase()),
        () => ask(`  ${a.email}  `),
      ]);
      if (same !== 429 && attempt < 2) continue;
      expect(same).toBe(429);
      expect(others).toEqual([429, 429]);
      break;
    }
  });
});

describe("search bursts", () => {
  it("a visitor's searches have a budget per address, with the spec's 429", { timeout: 120_000 }, async () => {
    const script = new Client();
    await burst(SEARCH_VISITOR_BUDGET, (i) => script.get(`/v1/search?q=word${i}&t=notes`));
    // Another address has its own budget.
    expect((await new Client().get("/v1/search?q=word&t=notes")).status).toBe(200);
  });

  it("a signed-in person's searches have a larger budget of their own, whatever address they use", {
    timeout: 120_000,
  }, async () => {
    const a = await user();
    const answered = await burst(SEARCH_BUDGET, (i) => {
      a.ip = `10.250.${i >> 8}.${i & 255}`;
      return a.get(`/v1/search?q=word${i}&t=${i % 2 ? "users" : "replies"}`);
    });
    // More than a visitor gets: the person's budget, not the address's.
    expect(answered.length).toBeGreaterThan(2 * SEARCH_VISITOR_BUDGET);
  });
});
