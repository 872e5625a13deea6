// Issue 19: the meter reports D1's busy time and rows read/written per request (Server-Timing),
// a list reads at most 10 × page size rows plus a constant, a page number alone cannot walk an
// index (bounded OFFSET), and a write costs the same rows on a popular target as on a fresh one.
import { env } from "cloudflare:test";
import type { Env } from "../../worker/env";
import { beforeAll, describe, expect, it } from "vitest";
import { meterFromHeader, tripsOf } from "../../worker/db/meter";
import { endAllSessions, endSession } from "../../worker/lib/sessions";
import { verifyToken } from "../../worker/lib/token";
import { MAX_OFFSET_PAGE, PAGE_SIZE } from "../../worker/lib/paging";
import { type TestUser, user, visitor } from "../factories";
import type { Res } from "../http";

const CROWD = 1500;
const meterOf = (res: Res) => meterFromHeader(res.headers.get("server-timing"));
/** A list's rows budget: 10 × page size, plus a constant for the session and hydration lookups. */
const LIST_BUDGET = 10 * PAGE_SIZE + 60;

let author: TestUser;
let reader: TestUser;
let popular: number;
let fresh: number;

beforeAll(async () => {
  author = await user();
  reader = await user();
  const db = env.DB;
  // A crowd in bulk SQL: 1,500 users who all like one note and follow its author, and 300 notes.
  const seq = `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${CROWD})`;
  await db.batch([
    db.prepare(
      `insert into users (username, email, fullname, created_at) ${seq} select 'crowd' || n, 'crowd' || n || '@example.com', 'Crowd ' || n, 0 from s`,
    ),
    db
      .prepare(
        `insert into notes (user_id, label, content, txt, created_at, noted_at) ${seq.replace(`${CROWD}`, "300")} select ?1, 'idea', '<p>n' || n || ' #meter</p>', 'n' || n || ' #meter', n, n from s`,
      )
      .bind(author.id),
  ]);
  popular = (await author.post("/v1/notes", { label: "idea", content: "<p>popular</p>" })).body.note.id;
  fresh = (await author.post("/v1/notes", { label: "idea", content: "<p>fresh</p>" })).body.note.id;
  await db.batch([
    db
      .prepare(
        "insert into likes (user_id, kind, target_id) select id, 'note', ?1 from users where username like 'crowd%'",
      )
      .bind(popular),
    db
      .prepare(
        "update notes set likenum = (select count(*) from likes where kind = 'note' and target_id = ?1) where id = ?1",
      )
      .bind(popular),
    db
      .prepare("insert into follows (follower_id, followee_id) select id, ?1 from users where username like 'crowd%'")
      .bind(author.id),
    db
      .prepare("update users set follower_num = (select count(*) from follows where followee_id = ?1) where id = ?1")
      .bind(author.id),
    db.prepare("update users set note_num = note_num + 300 where id = ?1").bind(author.id),
  ]);
});

describe("the D1 meter in Server-Timing (issue 19)", () => {
  it("reports round trips, D1 busy time and rows read and written", async () => {
    const res = await reader.get("/v1/discover");
    const m = meterOf(res);
    expect(m.trips).toBe(tripsOf(res.headers.get("server-timing")));
    expect(m.trips).toBeGreaterThanOrEqual(1);
    expect(m.read).toBeGreaterThan(PAGE_SIZE);
    expect(m.busy).toBeGreaterThanOrEqual(0);
    expect(m.written).toBe(0);
    const like = meterOf(await reader.post(`/v1/likes/${fresh}?t=note`));
    expect(like.written).toBeGreaterThan(0);
  });

  it("a signed-in like, follow, bookmark or report is one D1 round trip: the target check leads the write's own batch (the session is in KV)", async () => {
    const someone = await user();
    const note = (await author.post("/v1/notes", { label: "idea", content: "<p>one trip</p>" })).body.note.id;
    const writes: [string, () => Promise<Res>][] = [
      ["like", () => someone.post(`/v1/likes/${note}?t=note`)],
      ["unlike", () => someone.delete(`/v1/likes/${note}?t=note`)],
      ["follow", () => someone.post(`/v1/follows/${author.id}`)],
      ["unfollow", () => someone.delete(`/v1/follows/${author.id}`)],
      ["bookmark", () => someone.post(`/v1/bookmarks/${note}?t=note`)],
      ["report", () => someone.post("/v1/reports", { nid: note, kind: 1, t: "note" })],
    ];
    for (const [name, write] of writes) {
      const res = await write();
      expect(res.status, name).toBeLessThan(300);
      expect(meterOf(res).trips, name).toBe(1);
    }
    // A signed-in read that is not a list: one read.
    expect(meterOf(await someone.get(`/v1/notes/${note}`)).trips).toBe(1);
  });

  it("a write whose session has ended is a 401 and changes nothing (the session is read from KV first)", async () => {
    const note = (await author.post("/v1/notes", { label: "idea", content: "<p>guarded</p>" })).body.note.id;
    const state = async () => {
      const row = await env.DB.prepare(
        `select (select likenum from notes where id = ?1) as likes, (select count(*) from likes where target_id = ?1 and kind = 'note') as likeRows,
          (select follower_num from users where id = ?2) as followers, (select count(*) from follows where followee_id = ?2) as followRows,
          (select count(*) from notifications where user_id = ?2) as notis, (select noti_num from users where id = ?2) as badge`,
      )
        .bind(note, author.id)
        .first();
      return row;
    };
    // Revoked two ways: every session of the account ends (logout everywhere, password change,
    // suspension), or this one alone does (Settings).
    const revocations = {
      all: (uid: number) => endAllSessions(env as unknown as Env, uid),
      one: async (uid: number, token: string) => {
        const named = verifyToken(env.TOKEN_SECRET, token);
        await endSession(env as unknown as Env, uid, named?.sid ?? "");
      },
    };
    for (const [revoke, end] of Object.entries(revocations)) {
      const someone = await user();
      await someone.post(`/v1/follows/${author.id}`);
      const before = await state();
      await end(someone.id, someone.token ?? "");
      for (const res of [
        await someone.post(`/v1/likes/${note}?t=note`),
        await someone.post(`/v1/follows/${author.id}`),
        await someone.delete(`/v1/follows/${author.id}`),
      ]) {
        expect(res.status, revoke).toBe(401);
        expect(res.body.code).toBe("unauthorized");
      }
      expect(await state(), revoke).toEqual(before);
    }
    // A refusal of the write's own check (no such note) is that answer, not the session's.
    const someone = await user();
    const missing = await someone.post("/v1/likes/999999999?t=note");
    expect(missing.status).toBe(404);
    expect((await someone.post(`/v1/likes/${note}?t=note`)).status).toBe(200);
  });

  it("holds every list to 10 × page size rows read plus a constant, signed in or not", async () => {
    const lists = [
      "/v1/discover",
      `/v1/notes?uid=${author.id}`,
      `/v1/notes?uid=${author.id}&xlabel=idea`,
      "/v1/tags/meter",
      `/v1/follows/${author.id}/followers`,
      `/v1/replies?pid=${-popular}`,
      `/v1/discover?page=${MAX_OFFSET_PAGE}`,
    ];
    await reader.post(`/v1/follows/${author.id}`);
    for (const who of [reader, undefined]) {
      for (const path of [...lists, ...(who ? ["/v1/feeds", "/v1/notifications"] : [])]) {
        const res = who ? await who.get(path) : await visitor().get(path);
        expect(res.status, path).toBe(200);
        expect(meterOf(res).read, `${path} ${who ? "signed in" : "visitor"}`).toBeLessThanOrEqual(LIST_BUDGET);
      }
    }
  });

  it("answers a page number past the bound without a cursor with a 400, and follows cursors at any depth", async () => {
    const deep = await reader.get(`/v1/discover?page=${MAX_OFFSET_PAGE + 1}`);
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe(`Pages after ${MAX_OFFSET_PAGE} need the cursor of the page before them.`);
    let res = await reader.get("/v1/discover");
    for (let page = 2; page <= MAX_OFFSET_PAGE + 3; page++) {
      res = await reader.get(`/v1/discover?page=${page}&cursor=${res.body.cursor}`);
      expect(res.status).toBe(200);
      expect(meterOf(res).read).toBeLessThanOrEqual(LIST_BUDGET);
    }
  });

  it("a like or follow costs the same rows on a target with 1,500 likes or followers as on a fresh one", async () => {
    const someone = await user();
    // Not yet liked by the reader (the first test liked `fresh`): both likes are first likes.
    const fresh = (await author.post("/v1/notes", { label: "idea", content: "<p>fresher</p>" })).body.note.id;
    const cost = async (res: Promise<Res>) => {
      const r = await res;
      expect(r.status).toBe(200);
      const m = meterOf(r);
      return { read: m.read, written: m.written };
    };
    const onPopular = await cost(reader.post(`/v1/likes/${popular}?t=note`));
    const onFresh = await cost(reader.post(`/v1/likes/${fresh}?t=note`));
    expect(onPopular).toEqual(onFresh);
    expect(await cost(reader.delete(`/v1/likes/${popular}?t=note`))).toEqual(
      await cost(reader.delete(`/v1/likes/${fresh}?t=note`)),
    );
    const followPopular = await cost(someone.post(`/v1/follows/${author.id}`));
    const followFresh = await cost(someone.post(`/v1/follows/${reader.id}`));
    expect(followPopular).toEqual(followFresh);
    // A recount would read the 1,500 rows it counts; these read a few dozen at most.
    expect(onPopular.read).toBeLessThan(60);
    expect(followPopular.read).toBeLessThan(60);
    const note = (await reader.get(`/v1/notes/${popular}`)).body;
    expect(note.likenum).toBe(CROWD);
  });

  it("a block that cuts follows both ways, and a moderator's hide, cost the same rows on a popular target as on a fresh one (issue 16)", async () => {
    const cost = async (res: Promise<Res>) => {
      const r = await res;
      expect(r.status).toBe(200);
      const m = meterOf(r);
      return { read: m.read, written: m.written };
    };
    // x and the author follow each other, as do x and a fresh account: each block cuts two follows.
    const [x, quiet] = [await user(), await user()];
    for (const [a, b] of [
      [x, author],
      [author, x],
      [x, quiet],
      [quiet, x],
    ] as const)
      expect((await a.post(`/v1/follows/${b.id}`)).status).toBe(200);
    const blockPopular = await cost(x.post(`/v1/blocks/${author.id}`));
    const blockFresh = await cost(x.post(`/v1/blocks/${quiet.id}`));
    // The same writes; the reads may differ by a row or two of the targets' own (index probes in
    // a deeper index), never by the author's 1,500 followers, likes or notices.
    const same = (a: { read: number; written: number }, b: { read: number; written: number }) => {
      expect(a.written).toBe(b.written);
      expect(Math.abs(a.read - b.read)).toBeLessThanOrEqual(2);
      expect(a.read).toBeLessThan(60);
    };
    same(blockPopular, blockFresh);
    same(await cost(x.delete(`/v1/blocks/${author.id}`)), await cost(x.delete(`/v1/blocks/${quiet.id}`)));
    // Hiding a note with 1,500 likes moves the same counters as hiding a fresh one.
    const mod = await user();
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const newer = (await author.post("/v1/notes", { label: "idea", content: "<p>to hide</p>" })).body.note.id;
    const hide = (id: number) =>
      cost(mod.post("/v1/moderation/actions", { kind: "note", id, action: "hide", reason: "Spam" }));
    same(await hide(popular), await hide(newer));
    const restore = (id: number) =>
      cost(mod.post("/v1/moderation/actions", { kind: "note", id, action: "restore", reason: "Appeal" }));
    same(await restore(popular), await restore(newer));
  });
});
