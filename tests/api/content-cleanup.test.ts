// Content that cleans up after itself: the likes, bookmarks, reports and notifications about a note,
// a reply or an x-folder go with it by the schema's foreign keys (no delete path lists them), and
// every counter stays exact, through HTTP on real migrations.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { type TestUser, user, users } from "../factories";

const n = async (q: string, ...args: unknown[]) =>
  (await env.DB.prepare(q)
    .bind(...args)
    .first<{ n: number }>())!.n;

/** Every row of the four kinds that points at (kind, id), by the columns the schema derives. */
const about = async (column: "note_id" | "reply_id" | "folder_id", id: number) => ({
  likes: await n(`select count(*) n from likes where ${column} = ?`, id),
  bookmarks: await n(`select count(*) n from bookmarks where ${column} = ?`, id),
  reports: await n(`select count(*) n from reports where ${column} = ?`, id),
  notifications: await n(`select count(*) n from notifications where ${column} = ?`, id),
});
const NONE = { likes: 0, bookmarks: 0, reports: 0, notifications: 0 };

const badge = (u: TestUser) => n("select noti_num n from users where id = ?", u.id);

/** `who` like, bookmark and report (kind, id): one of each. */
async function interact(who: TestUser[], kind: string, id: number) {
  for (const u of who) {
    expect((await u.post(`/v1/likes/${id}?t=${kind}`)).status).toBe(200);
    expect((await u.post(`/v1/bookmarks/${id}?t=${kind}`)).status).toBeLessThan(300);
    expect((await u.post("/v1/reports", { nid: id, kind: 2, t: kind })).status).toBe(201);
  }
}

describe("likes count exactly, and go with what they like", () => {
  it("like twice, unlike twice, many people at once, then delete the note: counters and rows right", async () => {
    const author = await user();
    const [a, b] = await users(2);
    const id = (await author.post("/v1/notes", { label: "idea", content: "<p>liked</p>" })).body.note.id;
    const likenum = async () => (await author.get(`/v1/notes/${id}`)).body.likenum;
    await a.post(`/v1/likes/${id}?t=note`);
    await a.post(`/v1/likes/${id}?t=note`);
    expect(await likenum()).toBe(1);
    await a.delete(`/v1/likes/${id}?t=note`);
    await a.delete(`/v1/likes/${id}?t=note`);
    expect(await likenum()).toBe(0);
    expect(await badge(author)).toBe(0);
    const crowd = await users(20);
    await Promise.all(crowd.map((u) => u.post(`/v1/likes/${id}?t=note`)));
    await Promise.all([b, ...crowd.slice(0, 5)].map((u) => u.post(`/v1/likes/${id}?t=note`)));
    expect(await likenum()).toBe(21);
    expect(await n("select count(*) n from likes where note_id = ?", id)).toBe(21);
    expect(await badge(author)).toBe(21);
    expect(await wrongCounters()).toEqual([]);
    expect((await author.delete(`/v1/notes/${id}`)).status).toBe(200);
    expect(await about("note_id", id)).toEqual(NONE);
    expect(await badge(author)).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });
});

describe("what points at deleted content goes with it", () => {
  it("a note takes its likes, bookmarks, reports and notifications, and its replies' too", async () => {
    const author = await user();
    const fans = await users(2);
    const id = (await author.post("/v1/notes", { label: "idea", content: "<p>soon gone</p>" })).body.note.id;
    const reply = (await fans[0].post("/v1/replies", { parent: -id, content: `<p>hi @${author.username}</p>` })).body
      .id;
    await interact(fans, "note", id);
    await interact([author, fans[1]], "reply", reply);
    expect((await about("note_id", id)).notifications).toBeGreaterThan(0);
    expect((await about("reply_id", reply)).notifications).toBeGreaterThan(0);
    await author.post("/v1/notifications/read");
    await fans[1].post(`/v1/likes/${id}?t=note`); // already liked: no new notice
    await fans[1].post("/v1/replies", { parent: -id, content: "<p>unread</p>" });
    expect(await badge(author)).toBe(1);
    expect((await author.delete(`/v1/notes/${id}`)).status).toBe(200);
    expect(await about("note_id", id)).toEqual(NONE);
    expect(await about("reply_id", reply)).toEqual(NONE);
    expect(await badge(author)).toBe(0);
    expect(await badge(fans[0])).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });

  it("a reply takes what is about it and about the replies under it", async () => {
    const author = await user();
    const [a, b] = await users(2);
    const id = (await author.post("/v1/notes", { label: "idea", content: "<p>thread</p>" })).body.note.id;
    const top = (await a.post("/v1/replies", { parent: -id, content: "<p>top</p>" })).body.id;
    const under = (await b.post("/v1/replies", { parent: top, content: "<p>under</p>" })).body.id;
    await interact([author, b], "reply", top);
    await interact([author, a], "reply", under);
    expect((await a.delete(`/v1/replies/${top}`)).status).toBe(200);
    expect(await about("reply_id", top)).toEqual(NONE);
    expect(await about("reply_id", under)).toEqual(NONE);
    expect((await author.get(`/v1/notes/${id}`)).body.repnum).toBe(0);
    expect(await badge(a)).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });

  it("an x-folder takes its likes, bookmarks, reports and notifications", async () => {
    const owner = await user();
    const fans = await users(2);
    const folder = (await owner.post("/v1/folders", { type: "Project", name: "Gone soon", descr: "", link: "" })).body;
    await interact(fans, "project", folder.id);
    expect(await about("folder_id", folder.id)).toEqual({ likes: 2, bookmarks: 2, reports: 2, notifications: 2 });
    expect(await badge(owner)).toBe(2);
    expect((await owner.delete(`/v1/folders/${folder.id}`)).status).toBe(200);
    expect(await about("folder_id", folder.id)).toEqual(NONE);
    expect(await badge(owner)).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });
});
