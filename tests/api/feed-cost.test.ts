// Issue 19: the following feed reads at most 10 × page size rows plus a constant whatever the
// data, without fan-out on write: for a reader who follows 3 quiet accounts (their only notes the
// oldest among thousands) and for one who follows thousands of active accounts. Rows read come
// from Server-Timing (D1's own count): deterministic, so the test holds exact shapes, not timings.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { meterFromHeader } from "../../worker/db/meter";
import { MAX_FEED_PAGE, MERGE_MAX, WINDOW } from "../../worker/features/feed/feed.service";
import { PAGE_SIZE } from "../../worker/lib/paging";
import { type TestUser, user } from "../factories";
import type { Res } from "../http";

/** The list budget of tests/api/meter.test.ts: 10 × page size, plus the session and hydration lookups. */
const LIST_BUDGET = 10 * PAGE_SIZE + 60;
/** People who write the background notes; the heavy reader follows all of them. */
const CROWD = 2000;
const rowsOf = (res: Res) => meterFromHeader(res.headers.get("server-timing")).read;
const ids = (res: Res) => res.body.notes.map((n: { id: number }) => n.id) as number[];
const seq = (n: number) => `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${n})`;

let quiet: TestUser;
let heavy: TestUser;
let quietNotes: number[];
let crowd0: number;

/** `count` notes by the crowd, round-robin, newer than anything before (ids and times grow together). */
async function crowdNotes(count: number) {
  const t = Date.now();
  await env.DB.prepare(
    `insert into notes (user_id, label, content, txt, created_at, noted_at) ${seq(count)} select ?1 + (n % ${CROWD}), 'idea', '<p>c</p>', 'c', ?2 + n, ?2 + n from s`,
  )
    .bind(crowd0, t)
    .run();
}

beforeAll(async () => {
  quiet = await user();
  heavy = await user();
  const db = env.DB;
  // Three quiet accounts, each with one note, written first: the oldest notes of the feed.
  const q = [await user(), await user(), await user()];
  quietNotes = [];
  for (const a of q) {
    quietNotes.push((await a.post("/v1/notes", { label: "idea", content: `<p>quiet ${a.username}</p>` })).body.note.id);
    expect((await quiet.post(`/v1/follows/${a.id}`)).status).toBe(200);
  }
  // The crowd, in bulk: CROWD users; the heavy reader follows every one of them.
  crowd0 = ((await db.prepare("select max(id) m from users").first<{ m: number }>())?.m ?? 0) + 1;
  await db.batch([
    db
      .prepare(
        `insert into users (id, username, email, fullname, created_at) ${seq(CROWD)} select ?1 + n - 1, 'fc' || (?1 + n), 'fc' || (?1 + n) || '@example.com', 'Crowd', 0 from s`,
      )
      .bind(crowd0),
    db
      .prepare(`insert into follows (follower_id, followee_id) ${seq(CROWD)} select ?2, ?1 + n - 1 from s`)
      .bind(crowd0, heavy.id),
    db.prepare("update users set following_num = ?2 where id = ?1").bind(heavy.id, CROWD),
  ]);
  await crowdNotes(5000);
});

describe("the following feed's rows read (issue 19)", () => {
  it("3 quiet accounts behind 5,000 newer notes: their 3 notes in one page, within the budget", async () => {
    const res = await quiet.get("/v1/feeds");
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...quietNotes].reverse());
    expect(res.body.paginator.is_end).toBe(true);
    expect(res.body.cursor).toBeNull();
    expect(rowsOf(res)).toBeLessThanOrEqual(LIST_BUDGET);
  });

  it("reads the same rows for the quiet reader whether 5,000 or 15,000 notes are newer (it does not walk them)", async () => {
    const before = rowsOf(await quiet.get("/v1/feeds"));
    await crowdNotes(10_000);
    const res = await quiet.get("/v1/feeds");
    expect(ids(res)).toEqual([...quietNotes].reverse());
    expect(rowsOf(res)).toBe(before);
  });

  it("2,000 active accounts: full pages, newest first, each within the budget, cursor to cursor", async () => {
    const newest = (await env.DB.prepare("select max(id) m from notes").first<{ m: number }>())?.m ?? 0;
    let cursor: string | null = null;
    let expected = newest;
    for (let page = 1; page <= 4; page++) {
      const res: Res = await heavy.get(`/v1/feeds?page=${page}${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      // Every note of the crowd is followed: the page is the next 20 ids, in order.
      expect(ids(res)).toEqual(Array.from({ length: PAGE_SIZE }, (_, i) => expected - i));
      expect(rowsOf(res), `page ${page}`).toBeLessThanOrEqual(LIST_BUDGET);
      expected -= PAGE_SIZE;
      cursor = res.body.cursor;
      expect(cursor).not.toBeNull();
    }
  });

  it("a page number without a cursor stays within the budget too (bounded offset: page 2 here)", async () => {
    for (const who of [quiet, heavy]) {
      const res = await who.get(`/v1/feeds?page=${MAX_FEED_PAGE}`);
      expect(res.status).toBe(200);
      expect(rowsOf(res)).toBeLessThanOrEqual(LIST_BUDGET);
      const deep = await who.get(`/v1/feeds?page=${MAX_FEED_PAGE + 1}`);
      expect(deep.status).toBe(400);
      expect(deep.body.message).toBe(`Pages after ${MAX_FEED_PAGE} need the cursor of the page before them.`);
    }
  });

  it(`up to ${MERGE_MAX} followed accounts with many notes each: the merge's page 1 and page 2 stay within the budget`, async () => {
    const reader = await user();
    const db = env.DB;
    const first = (await db.prepare("select max(id) m from users").first<{ m: number }>())?.m ?? 0;
    await db.batch([
      db
        .prepare(`insert into follows (follower_id, followee_id) ${seq(MERGE_MAX)} select ?2, ?1 + n - 1 from s`)
        .bind(crowd0, reader.id),
      db.prepare("update users set following_num = ?2 where id = ?1").bind(reader.id, MERGE_MAX),
    ]);
    expect(first).toBeGreaterThan(0);
    const expected = (
      await db
        .prepare(`select id from notes where user_id >= ?1 and user_id < ?1 + ${MERGE_MAX} order by id desc limit 40`)
        .bind(crowd0)
        .all<{ id: number }>()
    ).results.map((r) => r.id);
    const one = await reader.get("/v1/feeds");
    expect(ids(one)).toEqual(expected.slice(0, PAGE_SIZE));
    expect(rowsOf(one)).toBeLessThanOrEqual(LIST_BUDGET);
    const two = await reader.get(`/v1/feeds?page=2&cursor=${one.body.cursor}`);
    expect(ids(two)).toEqual(expected.slice(PAGE_SIZE, 2 * PAGE_SIZE));
    expect(rowsOf(two)).toBeLessThanOrEqual(LIST_BUDGET);
    const byNumber = await reader.get("/v1/feeds?page=2");
    expect(ids(byNumber)).toEqual(expected.slice(PAGE_SIZE, 2 * PAGE_SIZE));
    expect(rowsOf(byNumber)).toBeLessThanOrEqual(LIST_BUDGET);
  });

  it("many quiet accounts: short pages within the budget whose cursors go on until every note is found", async () => {
    // MERGE_MAX + 5 accounts, one note each, written before WINDOW × 3 newer notes of others.
    const reader = await user();
    const db = env.DB;
    const first = (await db.prepare("select max(id) m from users").first<{ m: number }>())?.m ?? 0;
    const n = MERGE_MAX + 5;
    await db.batch([
      db
        .prepare(
          `insert into users (id, username, email, fullname, created_at) ${seq(n)} select ?1 + n, 'mq' || (?1 + n), 'mq' || (?1 + n) || '@example.com', 'Quiet', 0 from s`,
        )
        .bind(first),
      db
        .prepare(`insert into follows (follower_id, followee_id) ${seq(n)} select ?2, ?1 + n from s`)
        .bind(first, reader.id),
      db.prepare("update users set following_num = ?2 where id = ?1").bind(reader.id, n),
      db
        .prepare(
          `insert into notes (user_id, label, content, txt, created_at, noted_at) ${seq(n)} select ?1 + n, 'idea', '<p>q</p>', 'q', ?2 + n, ?2 + n from s`,
        )
        .bind(first, Date.now()),
    ]);
    const theirs = (
      await db
        .prepare("select id from notes where user_id > ?1 and user_id <= ?1 + ?2 order by id desc")
        .bind(first, n)
        .all<{ id: number }>()
    ).results.map((r) => r.id);
    await crowdNotes(WINDOW * 3);
    const seen: number[] = [];
    let cursor: string | null = null;
    let requests = 0;
    do {
      const res: Res = await reader.get(`/v1/feeds${cursor ? `?page=2&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(rowsOf(res)).toBeLessThanOrEqual(LIST_BUDGET);
      seen.push(...ids(res));
      cursor = res.body.cursor;
      requests++;
    } while (cursor && seen.length < theirs.length && requests < 20);
    // The walk's windows reached them after a few short (here empty) pages: each note once, in order.
    expect(requests).toBeGreaterThan(3);
    expect(seen).toEqual(theirs);
  });
});
