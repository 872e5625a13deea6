// A Mastodon app on one NoteX reaching people on another (tests/fediverse.ts: a.test and b.test,
// real HTTP between them): lookup and search resolve name@host through federation (with a person's
// token and resolve only), and what the app writes goes out as the web's writes do.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appToken,
  caller,
  drain,
  type Instance,
  instance,
  migrate,
  type Person,
  person,
  routeFetch,
} from "../fediverse";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on a.test, through /v1
let bob: Person; // on b.test, through a Mastodon app
let token = "";

/** A request to `inst` as a Mastodon app (bearer `auth`, or none), JSON both ways. */
const api = (inst: Instance, method: string, path: string, body?: unknown, auth?: string) =>
  caller(inst)(method, path, body, auth);

const count = (inst: Instance, sql: string, ...args: unknown[]) =>
  inst.env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch(both);
  ada = await person(A, "adamasto");
  await person(A, "carolmasto");
  bob = await person(B, "bobmasto");
  token = await appToken(B, bob);
}, 120_000);
afterAll(() => unroute());

describe("a Mastodon app and the fediverse", () => {
  let adaOnB = "";
  it("lookup resolves name@host for a person's token; a visitor gets only the people known here", async () => {
    expect((await api(B, "GET", "/api/v1/accounts/lookup?acct=adamasto@a.test")).status).toBe(404);
    expect(await count(B, "select count(*) as n from users where username = 'adamasto@a.test'")).toBe(0);
    const found = await api(B, "GET", "/api/v1/accounts/lookup?acct=adamasto@a.test", undefined, token);
    expect(found.status).toBe(200);
    expect(found.body.acct).toBe("adamasto@a.test");
    adaOnB = found.body.id;
    // Known now: a visitor finds the stored account without another look-up.
    expect((await api(B, "GET", "/api/v1/accounts/lookup?acct=@adamasto@a.test")).body.id).toBe(adaOnB);
    expect((await api(B, "GET", "/api/v1/accounts/lookup?acct=nobody@a.test", undefined, token)).status).toBe(404);
    expect((await api(B, "GET", "/api/v1/accounts/lookup?acct=bad@@x", undefined, token)).status).toBe(404);
  });

  it("v2 search resolves a handle only with resolve=true and a token", async () => {
    const plain = await api(B, "GET", "/api/v2/search?q=@carolmasto@a.test&type=accounts", undefined, token);
    expect(plain.status).toBe(200);
    expect(plain.body.accounts).toEqual([]);
    const visitor = await api(B, "GET", "/api/v2/search?q=@carolmasto@a.test&resolve=true&type=accounts");
    expect(visitor.body.accounts).toEqual([]);
    expect(await count(B, "select count(*) as n from users where username = 'carolmasto@a.test'")).toBe(0);
    const resolved = await api(B, "GET", "/api/v2/search?q=@carolmasto@a.test&resolve=true", undefined, token);
    expect(resolved.body.accounts.map((a: { acct: string }) => a.acct)).toEqual(["carolmasto@a.test"]);
  });

  it("a follow, a status, a reply and a favourite from the app reach the other server", async () => {
    const rel = await api(B, "POST", `/api/v1/accounts/${adaOnB}/follow`, {}, token);
    expect(rel.body.following).toBe(true);
    await drain(both);
    const followers = await ada.call("GET", `/v1/follows/${ada.id}/followers`);
    expect(followers.body.users.map((u: { username: string }) => u.username)).toContain("bobmasto@b.test");
    const bobOnA = followers.body.users.find((u: { username: string }) => u.username === "bobmasto@b.test").id;
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
    await drain(both);

    const posted = await api(B, "POST", "/api/v1/statuses", { status: "Hello from an app on b.test" }, token);
    expect(posted.status).toBe(200);
    await drain(both);
    const feed = await ada.call("GET", "/v1/feeds");
    expect(JSON.stringify(feed.body.notes)).toContain("Hello from an app on b.test");

    const made = await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Ada writes on a.test</p>" });
    const noteOnA = made.body.note.id;
    await drain(both);
    const home = await api(B, "GET", "/api/v1/timelines/home", undefined, token);
    const copy = home.body.find((s: { content: string }) => s.content.includes("Ada writes on a.test"));
    expect(copy).toBeTruthy();
    expect((await api(B, "POST", `/api/v1/statuses/${copy.id}/favourite`, {}, token)).body.favourited).toBe(true);
    const reply = await api(
      B,
      "POST",
      "/api/v1/statuses",
      { status: "Replying from the app", in_reply_to_id: copy.id },
      token,
    );
    expect(reply.status).toBe(200);
    await drain(both);
    expect(await count(A, "select likenum as n from notes where id = ?", noteOnA)).toBe(1);
    expect(await count(A, "select repnum as n from notes where id = ?", noteOnA)).toBe(1);

    // Undone and deleted from the app, the other server follows.
    await api(B, "POST", `/api/v1/statuses/${copy.id}/unfavourite`, {}, token);
    expect((await api(B, "DELETE", `/api/v1/statuses/${reply.body.id}`, undefined, token)).status).toBe(200);
    await api(B, "POST", `/api/v1/accounts/${adaOnB}/unfollow`, {}, token);
    await drain(both);
    expect(await count(A, "select likenum as n from notes where id = ?", noteOnA)).toBe(0);
    expect(await count(A, "select repnum as n from notes where id = ?", noteOnA)).toBe(0);
    expect(await count(A, "select follower_num as n from users where id = ?", ada.id)).toBe(0);
  });
  it("a report with forward reaches the post's server as a Flag from this server; without forward nothing leaves", async () => {
    const statuses = await api(B, "GET", `/api/v1/accounts/${adaOnB}/statuses`, undefined, token);
    const copy = statuses.body.find((s: { content: string }) => s.content.includes("Ada writes on a.test"));
    expect(copy).toBeTruthy();
    const noteOnA = await count(A, "select id as n from notes where content like '%Ada writes on a.test%'");
    const reportsOnA = () =>
      count(A, "select count(*) as n from reports where kind = 'note' and target_id = ?", noteOnA);
    const kept = await api(
      B,
      "POST",
      "/api/v1/reports",
      { account_id: adaOnB, status_ids: [copy.id], category: "spam", comment: "Kept here" },
      token,
    );
    expect(kept.status).toBe(200);
    expect(kept.body.forwarded).toBe(false);
    await drain(both);
    expect(await reportsOnA()).toBe(0);

    // A second post of hers reaches b.test (it mentions bob); both go in one report, one Flag.
    await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Again for @bobmasto@b.test</p>" });
    await drain(both);
    const again = (await api(B, "GET", `/api/v1/accounts/${adaOnB}/statuses`, undefined, token)).body.find(
      (s: { content: string }) => s.content.includes("Again for"),
    );
    const againOnA = await count(A, "select id as n from notes where content like '%Again for%'");
    const carol = await person(B, "carolreport");
    const sent = await api(
      B,
      "POST",
      "/api/v1/reports",
      {
        account_id: adaOnB,
        status_ids: [copy.id, again.id],
        category: "spam",
        comment: "Posts every hour",
        forward: true,
      },
      await appToken(B, carol),
    );
    expect(sent.status).toBe(200);
    expect(sent.body.forwarded).toBe(true);
    const before = (await A.env.DB.prepare("select count(*) as n from reports").first<{ n: number }>())?.n ?? 0;
    await drain(both);
    expect(await reportsOnA()).toBe(1);
    expect(await count(A, "select count(*) as n from reports where kind = 'note' and target_id = ?", againOnA)).toBe(1);
    expect(await count(A, "select count(*) as n from reports")).toBe(before + 2);
    // Reported by b.test itself (its instance actor), never by the person who reported.
    const row = await A.env.DB.prepare(
      "select u.username, r.reason, r.note from reports r join users u on u.id = r.user_id where r.kind = 'note' and r.target_id = ?",
    )
      .bind(noteOnA)
      .first();
    expect(row).toEqual({ username: "b.test@b.test", reason: 1, note: "Posts every hour" });
  });
});
