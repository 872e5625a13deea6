import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { snapshot } from "../db-snapshot";
import { type TestUser, user, users, visitor } from "../factories";

const note = async (u: TestUser, text = "hello") =>
  (await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` })).body.note.id as number;
const stats = async (u: TestUser) => JSON.parse((await u.get("/v1/me")).body.jstats);
const count = async (sql: string, ...args: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...args)
      .first<{ n: number }>()
  )?.n;

describe("follows", () => {
  it("follows idempotently, refuses self, counts both sides, lists with the viewer's flag", async () => {
    const [a, b, c] = await users(3);
    expect((await a.post(`/v1/follows/${b.id}`)).body).toEqual({ following: true, followers: 1 });
    expect((await a.post(`/v1/follows/${b.id}`)).body).toEqual({ following: true, followers: 1 });
    await c.post(`/v1/follows/${b.id}`);
    expect((await a.post(`/v1/follows/${a.id}`)).status).toBe(422);
    expect((await a.post("/v1/follows/99999999")).status).toBe(404);
    expect(await stats(a)).toMatchObject({ following: 1 });
    expect(await stats(b)).toMatchObject({ follower: 2 });
    const followers = (await a.get(`/v1/follows/${b.id}/followers?page=1`)).body;
    expect(followers.users.map((u: { id: number }) => u.id)).toEqual([c.id, a.id]);
    expect((await c.get(`/v1/users/${b.username}`)).body.following).toBe(true);
    const following = (await visitor().get(`/v1/follows/${a.id}/following?page=1`)).body;
    expect(following.users).toHaveLength(1);
    expect(following.paginator).toEqual({ page: 1, is_end: true });
    expect((await a.delete(`/v1/follows/${b.id}`)).body).toEqual({ following: false, followers: 1 });
    expect(await stats(a)).toMatchObject({ following: 0 });
  });
});

describe("likes", () => {
  it("likes once however often it is asked, never below zero", async () => {
    const [a, b] = await users(2);
    const id = await note(a);
    await b.post(`/v1/likes/${id}?t=note`);
    expect((await b.post(`/v1/likes/${id}?t=note`)).body).toEqual({ liked: true, likenum: 1 });
    await b.delete(`/v1/likes/${id}?t=note`);
    expect((await b.delete(`/v1/likes/${id}?t=note`)).body).toEqual({ liked: false, likenum: 0 });
    expect((await b.post("/v1/likes/99999999?t=note")).status).toBe(404);
    expect((await b.post(`/v1/likes/${id}?t=evil`)).status).toBe(400);
  });

  it("50 concurrent like/unlike requests by different users leave likenum equal to the rows", async () => {
    const a = await user();
    const id = await note(a);
    const likers = await users(25);
    await Promise.all(
      likers.flatMap((u, i) => [
        u.post(`/v1/likes/${id}?t=note`),
        i % 2 ? u.delete(`/v1/likes/${id}?t=note`) : u.post(`/v1/likes/${id}?t=note`),
      ]),
    );
    const rows = await count("select count(*) n from likes where kind = 'note' and target_id = ?", id);
    const { likenum } = (await a.get(`/v1/notes/${id}`)).body;
    expect(likenum).toBe(rows);
  });
});

describe("bookmarks and reports", () => {
  it("bookmarks a note, looks it up, lists it, and unbookmarks", async () => {
    const [a, b] = await users(2);
    const id = await note(a, "save me");
    expect((await b.get(`/v1/bookmarks/${id}?t=note`)).body).toEqual({ bookmarked: false });
    await b.post(`/v1/bookmarks/${id}?t=note`);
    await b.post(`/v1/bookmarks/${id}?t=note`);
    expect((await b.get(`/v1/bookmarks/${id}?t=note`)).body).toEqual({ bookmarked: true });
    expect((await b.get("/v1/bookmarks?t=note&page=1")).body.notes.map((n: { id: number }) => n.id)).toEqual([id]);
    await b.delete(`/v1/bookmarks/${id}?t=note`);
    expect((await b.get("/v1/bookmarks?t=note&page=1")).body.notes).toEqual([]);
  });

  it("reports once per user per item, with the kind of spec 3", async () => {
    const [a, b] = await users(2);
    const id = await note(a);
    expect((await b.post("/v1/reports", { nid: id, kind: 1 })).status).toBe(201);
    expect((await b.post("/v1/reports", { nid: id, kind: 2 })).status).toBe(201);
    expect(await count("select count(*) n from reports where user_id = ? and target_id = ?", b.id, id)).toBe(1);
    expect((await b.post("/v1/reports", { nid: id, kind: 6 })).body.fields.kind).toBe("Please select a reason.");
    expect((await b.post("/v1/reports", { nid: 99999999, kind: 1 })).status).toBe(404);
  });
});

describe("replies", () => {
  it("threads without depth limit, with exact repnum, chain and subtree delete", async () => {
    const [a, b] = await users(2);
    const id = await note(a);
    const r1 = (await b.post("/v1/replies", { parent: -id, content: "<p>first</p>" })).body;
    expect(r1).toMatchObject({ parent: -id, note_id: id, txt: "first", user: { id: b.id } });
    const r2 = (await a.post("/v1/replies", { parent: r1.id, content: "<p>second</p>" })).body;
    const r3 = (await b.post("/v1/replies", { parent: r2.id, content: "<p>third</p>" })).body;
    expect((await a.get(`/v1/notes/${id}`)).body.repnum).toBe(1);
    expect((await a.get(`/v1/replies?pid=${-id}&page=1`)).body.replies.map((r: { id: number }) => r.id)).toEqual([
      r1.id,
    ]);
    expect((await a.get(`/v1/replies/${r1.id}/child`)).body.replies.map((r: { id: number }) => r.id)).toEqual([r2.id]);
    const ch = (await visitor().get(`/v1/replies/${r3.id}/username/${b.username}`)).body;
    expect(ch.replies.map((r: { id: number }) => r.id)).toEqual([r1.id, r2.id, r3.id]);
    expect(ch.note.id).toBe(id);
    expect((await visitor().get(`/v1/replies/${r3.id}/username/${a.username}`)).status).toBe(404);
    // Only the author edits or deletes; deleting takes the subtree and recounts.
    const before = await snapshot();
    expect((await a.patch("/v1/replies", { id: r1.id, content: "<p>x</p>" })).status).toBe(404);
    expect((await a.delete(`/v1/replies/${r1.id}`)).status).toBe(404);
    expect(await snapshot()).toBe(before);
    expect((await b.patch("/v1/replies", { id: r1.id, content: "<p>edited</p>" })).body.txt).toBe("edited");
    expect((await b.delete(`/v1/replies/${r1.id}`)).status).toBe(200);
    expect(await count("select count(*) n from replies where note_id = ?", id)).toBe(0);
    expect((await a.get(`/v1/notes/${id}`)).body.repnum).toBe(0);
  });

  it("stores what a reply answers as parent_reply_id (null on the note), a foreign key that cascades, while /v1 keeps the spec's parent", async () => {
    const [a, b] = await users(2);
    const id = await note(a);
    const top = (await b.post("/v1/replies", { parent: -id, content: "<p>top</p>" })).body;
    const under = (await a.post("/v1/replies", { parent: top.id, content: "<p>under</p>" })).body;
    const deeper = (await b.post("/v1/replies", { parent: under.id, content: "<p>deeper</p>" })).body;
    expect([top.parent, under.parent, deeper.parent]).toEqual([-id, top.id, under.id]);
    const stored = async (r: number) =>
      (await env.DB.prepare("select note_id, parent_reply_id from replies where id = ?").bind(r).first()) as {
        note_id: number;
        parent_reply_id: number | null;
      } | null;
    expect(await stored(top.id)).toEqual({ note_id: id, parent_reply_id: null });
    expect(await stored(under.id)).toEqual({ note_id: id, parent_reply_id: top.id });
    const thread = (await a.get(`/v1/replies/thread?pid=${-id}&page=1`)).body.replies;
    expect(thread.map((r: { id: number; parent: number }) => [r.id, r.parent])).toEqual([
      [top.id, -id],
      [under.id, top.id],
      [deeper.id, under.id],
    ]);
    await a.post(`/v1/likes/${deeper.id}?t=reply`);
    // The schema itself takes what hangs under a deleted reply, and what is about it.
    await env.DB.prepare("delete from replies where id = ?").bind(under.id).run();
    expect(await stored(deeper.id)).toBeNull();
    expect(await count("select count(*) n from likes where kind = 'reply' and target_id = ?", deeper.id)).toBe(0);
    expect(await stored(top.id)).not.toBeNull();
  });

  it("refuses a reply over 500 characters or empty, and a missing parent", async () => {
    const [a, b] = await users(2);
    const id = await note(a);
    expect((await b.post("/v1/replies", { parent: -id, content: "x".repeat(501) })).body.message).toBe(
      "Reply should be less than 500 characters long.",
    );
    expect((await b.post("/v1/replies", { parent: -id, content: "x".repeat(500) })).status).toBe(201);
    expect((await b.post("/v1/replies", { parent: -id, content: " " })).status).toBe(422);
    expect((await b.post("/v1/replies", { parent: -99999999, content: "hi" })).status).toBe(404);
    expect((await b.post("/v1/replies", { parent: 0, content: "hi" })).status).toBe(422);
  });

  it("answers a repeated reply (a resubmitted form) with the first one: one row, one count, one notification", async () => {
    const [a, b] = await users(2);
    const id = await note(a);
    const first = await b.post("/v1/replies", { parent: -id, content: "<p>only once</p>" });
    const again = await b.post("/v1/replies", { parent: -id, content: "<p>only once</p>" });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(await count("select count(*) n from replies where note_id = ? and parent_reply_id is null", id)).toBe(1);
    expect(await count("select count(*) n from notifications where action = 'reply' and user_id = ?", a.id)).toBe(1);
    expect((await a.get(`/v1/notes/${id}`)).body.repnum).toBe(1);
    // Other text, or the same text under another parent, is a new reply.
    expect((await b.post("/v1/replies", { parent: -id, content: "<p>only twice</p>" })).body.id).not.toBe(
      first.body.id,
    );
    const other = await note(a, "other");
    expect((await b.post("/v1/replies", { parent: -other, content: "<p>only once</p>" })).body.id).not.toBe(
      first.body.id,
    );
    expect((await a.get(`/v1/notes/${id}`)).body.repnum).toBe(2);
  });
});

describe("notifications", () => {
  it("are created for like, reply, follow, note, renote and quote; none to oneself; undo removes; reading resets", async () => {
    const [a, b] = await users(2);
    await a.post(`/v1/follows/${b.id}`);
    const id = await note(b, "by b");
    await note(a, "a's own, no self-notification");
    const mine = await note(a, "to be liked");
    await b.post(`/v1/likes/${mine}?t=note`);
    await a.post(`/v1/likes/${mine}?t=note`);
    await b.post("/v1/replies", { parent: -mine, content: "nice" });
    await b.post("/v1/renotes", { renote_id: mine, content: "" });
    await b.post("/v1/renotes", { renote_id: mine, content: "<p>quoting</p>" });
    await b.post(`/v1/follows/${a.id}`);
    const list = (await a.get("/v1/notifications?page=1")).body.notis;
    expect(list.map((n: { action: string }) => n.action).sort()).toEqual([
      "follow",
      "like",
      "note",
      "quote",
      "renote",
      "reply",
    ]);
    expect(list.every((n: { user: { id: number } }) => n.user.id === b.id)).toBe(true);
    expect(list.find((n: { action: string }) => n.action === "note").href).toBe(`/${b.username}/note/${id}`);
    expect((await stats(a)).noti).toBe(6);
    await b.delete(`/v1/likes/${mine}?t=note`);
    await b.delete(`/v1/follows/${a.id}`);
    expect((await stats(a)).noti).toBe(4);
    expect((await a.post("/v1/notifications/read")).body).toEqual({ noti: 0 });
    expect((await stats(a)).noti).toBe(0);
    await b.post(`/v1/likes/${mine}?t=note`);
    expect((await stats(a)).noti).toBe(1);
    expect((await visitor().get("/v1/notifications?page=1")).status).toBe(401);
  });
});

describe("profile edit", () => {
  it("saves name and description with the spec's messages, and signs avatar and cover uploads", async () => {
    const a = await user();
    expect((await a.patch("/v1/users", { name: " ", descr: "" })).body.fields.name).toBe("Name is required");
    expect((await a.patch("/v1/users", { name: "n".repeat(100), descr: "" })).body.fields.name).toBe(
      "Name must be less than 100",
    );
    expect((await a.patch("/v1/users", { name: "Ok", descr: "d".repeat(300) })).body.fields.descr).toBe(
      "Description must be less than 300",
    );
    const ok = await a.patch("/v1/users", {
      name: "New Name",
      descr: "Builder of things",
      avatar: { file_size: 1000, file_ext: "png" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ fullname: "New Name", descr: "Builder of things" });
    expect(ok.body.avatar.put_link).toContain("/v1/uploads/u/");
    expect(ok.body.user.avatar).toBe(ok.body.avatar.file_url);
  });
});

describe("authorisation matrix: every social write refuses a visitor", () => {
  it.each([
    ["POST", "/v1/follows/1"],
    ["DELETE", "/v1/follows/1"],
    ["POST", "/v1/likes/1?t=note"],
    ["DELETE", "/v1/likes/1?t=note"],
    ["POST", "/v1/bookmarks/1?t=note"],
    ["DELETE", "/v1/bookmarks/1?t=note"],
    ["GET", "/v1/bookmarks?t=note"],
    ["POST", "/v1/reports"],
    ["POST", "/v1/replies"],
    ["PATCH", "/v1/replies"],
    ["DELETE", "/v1/replies/1"],
    ["POST", "/v1/renotes"],
    ["DELETE", "/v1/renotes/1"],
    ["PATCH", "/v1/users"],
    ["POST", "/v1/notifications/read"],
  ])("%s %s → 401", async (method, path) => {
    const before = await snapshot();
    expect(
      (await visitor().request(method, path, method === "GET" || method === "DELETE" ? undefined : {})).status,
    ).toBe(401);
    expect(await snapshot()).toBe(before);
  });
});
