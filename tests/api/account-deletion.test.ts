// Issue 17 item 6: DELETE /v1/users removes the person and leaves every counter on everyone
// else's content exact (tests/counters.ts audits all of them against their rows).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { user } from "../factories";
import { Client } from "../http";
import { world } from "../world";

const rowsOf = async (uid: number) => {
  const q = (sql: string) => env.DB.prepare(sql).bind(uid).first<{ n: number }>();
  const tables = [
    "select count(*) as n from notes where user_id = ?",
    "select count(*) as n from replies where user_id = ?",
    "select count(*) as n from likes where user_id = ?",
    "select count(*) as n from bookmarks where user_id = ?",
    "select count(*) as n from follows where follower_id = ?1 or followee_id = ?1",
    "select count(*) as n from notifications where user_id = ?1 or actor_id = ?1",
    "select count(*) as n from folders where user_id = ?",
    "select count(*) as n from uploads where user_id = ?",
    "select count(*) as n from users where id = ?",
  ];
  // Sessions live in KV, under the account's prefix.
  let total = (await env.SESSIONS.list({ prefix: `session:${uid}:` })).keys.length;
  for (const t of tables) total += (await q(t))?.n ?? 0;
  return total;
};

const remove = (c: Client, body: Record<string, unknown>) => c.request("DELETE", "/v1/users", body);

describe("DELETE /v1/users", () => {
  it("a wrong or missing password deletes nothing", async () => {
    const a = await user();
    const wrong = await remove(a, { password: "wrong1234" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.fields.password).toBe("The password is not correct.");
    expect((await remove(a, {})).status).toBe(401);
    expect((await a.get("/v1/me")).status).toBe(200);
    expect((await new Client().request("DELETE", "/v1/users", { password: "x" })).status).toBe(401);
  });

  it("removes a fan who liked, replied, renoted, quoted, bookmarked and followed: counters on others stay exact", async () => {
    const w = await world();
    // More of the fan's traces: a quote, a reply under someone's reply, a like on the owner's own reply.
    await w.fan.post("/v1/renotes", { renote_id: w.noteId, content: "<p>fan quote</p>" });
    await w.fan.post("/v1/replies", { parent: w.ownReplyId, content: "<p>under yours</p>" });
    await w.fan.post(`/v1/likes/${w.ownReplyId}?t=reply`);
    await w.owner.post(`/v1/follows/${w.fan.id}`);
    await w.other.post(`/v1/likes/${w.replyId}?t=reply`);
    expect(await wrongCounters()).toEqual([]);
    const before = (await w.owner.get(`/v1/notes/${w.owner.username}/${w.noteId}`)).body;
    const res = await remove(w.fan, { password: w.fan.password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await wrongCounters()).toEqual([]);
    expect(await rowsOf(w.fan.id)).toBe(0);
    const after = (await w.owner.get(`/v1/notes/${w.owner.username}/${w.noteId}`)).body;
    expect(after.likenum).toBe(before.likenum - 1);
    expect(after.renum).toBe(before.renum - 2);
    expect(after.repnum).toBe(before.repnum - 1);
    const owner = (await w.owner.get("/v1/me")).body;
    expect(JSON.parse(owner.jstats)).toMatchObject({ follower: 0, following: 0 });
    // The reply under the fan's reply went with it; the stranger's other things stay.
    expect((await w.other.get(`/v1/users/${w.other.username}`)).status).toBe(200);
  });

  it("removes an author whose note others liked, replied to, renoted and quoted: their counters stay exact", async () => {
    const w = await world();
    const res = await remove(w.owner, { password: w.owner.password });
    expect(res.status).toBe(200);
    expect(await wrongCounters()).toEqual([]);
    expect(await rowsOf(w.owner.id)).toBe(0);
    // No likes, bookmarks or replies point at what is gone.
    const orphans = await env.DB.prepare(
      "select (select count(*) from likes l where l.kind = 'note' and not exists(select 1 from notes n where n.id = l.target_id)) + (select count(*) from likes l where l.kind = 'reply' and not exists(select 1 from replies r where r.id = l.target_id)) + (select count(*) from bookmarks b where b.kind = 'note' and not exists(select 1 from notes n where n.id = b.target_id)) + (select count(*) from replies r where r.parent_reply_id is not null and not exists(select 1 from replies p where p.id = r.parent_reply_id)) as n",
    ).first<{ n: number }>();
    expect(orphans?.n).toBe(0);
    expect(JSON.parse((await w.fan.get("/v1/me")).body.jstats).following).toBe(0);
  });

  it("ends every session, login fails, the profile is 404, and the username and email are free again", async () => {
    const a = await user();
    const other = new Client();
    other.token = (await other.post("/v1/login", { username: a.username, password: a.password })).body.token;
    const cookie = new Client();
    cookie.cookie = a.cookie;
    expect((await remove(a, { password: a.password })).status).toBe(200);
    for (const c of [a, other, cookie]) expect((await c.get("/v1/me")).status).toBe(401);
    expect((await new Client().post("/v1/login", { username: a.username, password: a.password })).status).toBe(401);
    expect((await new Client().get(`/v1/users/${a.username}`)).status).toBe(404);
    const again = await new Client().post("/v1/signup", {
      email: a.email,
      name: "New Person",
      username: a.username,
      password: "secret123",
    });
    expect(again.status).toBe(201);
  });

  it("removes the person's images from R2", async () => {
    const a = await user();
    const res = await a.post("/v1/notes", {
      label: "idea",
      content: "<p>pic</p>",
      uploads: [{ key: "x", file_size: 3, file_ext: "png" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const put = new URL(res.body.uploads[0].put_link);
    const up = await a.request("PUT", `${put.pathname}${put.search}`, "png", { "content-type": "image/png" });
    expect(up.status).toBe(200);
    await env.IMAGES.put(`u/${a.id}/avatar/extra.png`, "x");
    expect((await env.IMAGES.list({ prefix: `u/${a.id}/` })).objects.length).toBe(2);
    expect((await remove(a, { password: a.password })).status).toBe(200);
    expect((await env.IMAGES.list({ prefix: `u/${a.id}/` })).objects.length).toBe(0);
  });

  it("deletes 1,200 notes, likes and follows in chunks (more than one round of each)", async () => {
    const [a, b] = [await user(), await user()];
    const note = (await b.post("/v1/notes", { label: "idea", content: "<p>b</p>" })).body.note.id;
    await a.post(`/v1/likes/${note}?t=note`);
    await b.post(`/v1/follows/${a.id}`);
    const now = Date.now();
    const stmts = [];
    for (let i = 0; i < 1200; i++)
      stmts.push(
        env.DB.prepare(
          "insert into notes (user_id, label, content, txt, created_at, noted_at) values (?, 'idea', '<p>n</p>', 'n', ?, ?)",
        ).bind(a.id, now + i, now + i),
      );
    stmts.push(env.DB.prepare("update users set note_num = note_num + 1200 where id = ?").bind(a.id));
    stmts.push(env.DB.prepare("insert into user_labels (user_id, label, n) values (?, 'idea', 1200)").bind(a.id));
    await env.DB.batch(stmts);
    expect(await wrongCounters()).toEqual([]);
    expect((await remove(a, { password: a.password })).status).toBe(200);
    expect(await rowsOf(a.id)).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });

  it("removes blocks and mutes both ways and the edit history; the moderation log outlives both accounts (issue 16)", async () => {
    const [a, b, c, mod] = [await user(), await user(), await user(), await user()];
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const n = (await a.post("/v1/notes", { label: "idea", content: "<p>v1</p>" })).body.note.id;
    expect((await a.patch("/v1/notes", { id: n, label: "idea", content: "<p>v2</p>" })).status).toBe(200);
    await a.post(`/v1/blocks/${b.id}`);
    await c.post(`/v1/blocks/${a.id}`);
    await a.post(`/v1/mutes/${c.id}`);
    await b.post(`/v1/mutes/${a.id}`);
    await c.post("/v1/reports", { nid: n, kind: 1 });
    const hide = { kind: "note", id: n, action: "hide", reason: "Spam" };
    expect((await mod.post("/v1/moderation/actions", hide)).status).toBe(200);
    const count = async (sql: string, id: number) =>
      (await env.DB.prepare(sql).bind(id).first<{ n: number }>())?.n ?? -1;
    expect(await count("select count(*) as n from note_versions where note_id = ?", n)).toBe(1);
    expect((await remove(a, { password: a.password })).status).toBe(200);
    expect(await count("select count(*) as n from blocks where blocker_id = ?1 or blocked_id = ?1", a.id)).toBe(0);
    expect(await count("select count(*) as n from mutes where muter_id = ?1 or muted_id = ?1", a.id)).toBe(0);
    expect(await count("select count(*) as n from note_versions where note_id = ?", n)).toBe(0);
    expect(await count("select count(*) as n from moderation_log where owner_id = ?", a.id)).toBe(1);
    // A moderator leaving keeps the record of what they did; the owner's name now reads as gone.
    expect((await remove(mod, { password: mod.password })).status).toBe(200);
    const log = await env.DB.prepare("select count(*) as n from moderation_log where moderator_id = ?")
      .bind(mod.id)
      .first<{ n: number }>();
    expect(log?.n).toBe(1);
    expect(await wrongCounters()).toEqual([]);
  });
});
