// Issue 8: integrity under concurrency. 100 mixed writes in flight at once on one note, one author
// and one reply — likes and unlikes (the same user twice, too), follows and unfollows, renotes and
// undos, quotes, replies created and deleted — then every counter must equal the rows it counts
// (the `npm run recount` audit finds zero mismatches).
//
// Why this can fail: the requests interleave at every await inside the worker. A counter written
// as read-then-write (`select likenum` … `update set likenum = ? + 1`) loses updates when two
// requests read the same value, and one written as `likenum = likenum + 1` drifts when the same
// like arrives twice (the insert is a no-op, the increment is not). The services recount from the
// rows in the write's own db.batch, which neither race can break.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type TestUser, user, users } from "../factories";
import type { Res } from "../http";
import { wrongCounters } from "../counters";

describe("integrity under concurrency (issue 8)", () => {
  it("100 concurrent mixed writes leave every counter equal to its rows", async () => {
    const author = await user();
    const crowd = await users(6);
    const noteId = (await author.post("/v1/notes", { label: "idea", content: "<p>busy note</p>" })).body.note.id;
    const replyId = (await author.post("/v1/replies", { parent: -noteId, content: "<p>busy reply</p>" })).body.id;
    // Something to undo for everyone: a like, a follow, a renote and a reply each.
    const own = new Map<TestUser, number>();
    for (const u of crowd) {
      await u.post(`/v1/likes/${noteId}?t=note`);
      await u.post(`/v1/follows/${author.id}`);
      await u.post("/v1/renotes", { renote_id: noteId, content: "" });
      own.set(u, (await u.post("/v1/replies", { parent: -noteId, content: "<p>mine</p>" })).body.id);
    }
    expect(await wrongCounters()).toEqual([]);

    // [what, call, statuses it may answer]: a repeated delete of the same reply is a 404, not a drift.
    const ops: [string, (u: TestUser) => Promise<Res>, number[]][] = [
      ["like", (u) => u.post(`/v1/likes/${noteId}?t=note`), [200]],
      ["unlike", (u) => u.delete(`/v1/likes/${noteId}?t=note`), [200]],
      ["follow", (u) => u.post(`/v1/follows/${author.id}`), [200]],
      ["unfollow", (u) => u.delete(`/v1/follows/${author.id}`), [200]],
      ["renote", (u) => u.post("/v1/renotes", { renote_id: noteId, content: "" }), [201]],
      ["undo renote", (u) => u.delete(`/v1/renotes/${noteId}`), [200]],
      ["reply", (u) => u.post("/v1/replies", { parent: -noteId, content: "<p>again</p>" }), [201]],
      ["delete reply", (u) => u.delete(`/v1/replies/${own.get(u)}`), [200, 404]],
      ["like reply", (u) => u.post(`/v1/likes/${replyId}?t=reply`), [200]],
      ["reply to reply", (u) => u.post("/v1/replies", { parent: replyId, content: "<p>under</p>" }), [201]],
      ["unlike reply", (u) => u.delete(`/v1/likes/${replyId}?t=reply`), [200]],
      ["quote", (u) => u.post("/v1/renotes", { renote_id: noteId, content: "<p>quoted</p>" }), [201]],
    ];
    const calls = Array.from({ length: 100 }, (_, i) => {
      // Every kind of write by every user, neighbours in flight being different kinds.
      const [what, call, ok] = ops[i % ops.length];
      const u = crowd[(i + Math.floor(i / ops.length)) % crowd.length];
      return call(u).then((res) => ({ what, user: u.username, ok, res }));
    });
    const done = await Promise.all(calls);
    expect(done).toHaveLength(100);
    for (const d of done)
      expect(d.ok, `${d.what} by ${d.user} → ${d.res.status} ${JSON.stringify(d.res.body)}`).toContain(d.res.status);
    expect(new Set(done.map((d) => d.what)).size).toBe(ops.length);

    expect(await wrongCounters()).toEqual([]);
    // And the API answers those exact figures.
    const rows = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    expect((await author.get(`/v1/notes/${noteId}`)).body).toMatchObject({
      likenum: await rows(`select count(*) n from likes where kind = 'note' and target_id = ${noteId}`),
      repnum: await rows(`select count(*) n from replies where note_id = ${noteId} and parent_reply_id is null`),
      renum: await rows(`select count(*) n from notes where renote_id = ${noteId}`),
    });
  });
});
