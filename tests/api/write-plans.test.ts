// A like and a follow are the commonest writes: their batches are built with drizzle once per
// isolate (values as placeholders, db/plan.ts) and each request only binds its own values, so a
// request builds no SQL. Each request's answer and rows are its own, never a cached one's.
import { env } from "cloudflare:test";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it, vi } from "vitest";
import { users } from "../factories";

const likesOf = async (note: number) =>
  (await env.DB.prepare("select user_id from likes where kind = 'note' and target_id = ?").bind(note).all()).results;

describe("a like's and a follow's statements, built once", () => {
  it("bind each request's own values and build no SQL after the first", async () => {
    const [a, b, c] = await users(3);
    const notes: number[] = [];
    for (const text of ["one", "two"]) {
      const res = await c.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` });
      expect(res.status).toBe(201);
      notes.push(res.body.note.id);
    }
    // The first like, unlike, follow and unfollow of this isolate may build their batches.
    for (const [m, path] of [
      ["POST", `/v1/likes/${notes[0]}?t=note`],
      ["DELETE", `/v1/likes/${notes[0]}?t=note`],
      ["POST", `/v1/follows/${c.id}`],
      ["DELETE", `/v1/follows/${c.id}`],
    ])
      expect((await a.request(m, path)).status).toBe(200);

    const built = vi.spyOn(SQLiteAsyncDialect.prototype, "sqlToQuery");
    try {
      expect((await a.post(`/v1/likes/${notes[1]}?t=note`)).body).toEqual({ liked: true, likenum: 1 });
      expect((await b.post(`/v1/likes/${notes[1]}?t=note`)).body).toEqual({ liked: true, likenum: 2 });
      expect((await b.post(`/v1/likes/${notes[0]}?t=note`)).body).toEqual({ liked: true, likenum: 1 });
      expect((await a.delete(`/v1/likes/${notes[1]}?t=note`)).body).toEqual({ liked: false, likenum: 1 });
      expect((await a.post(`/v1/follows/${c.id}`)).body).toEqual({ following: true, followers: 1 });
      expect((await b.post(`/v1/follows/${c.id}`)).body).toEqual({ following: true, followers: 2 });
      expect((await a.delete(`/v1/follows/${c.id}`)).body).toEqual({ following: false, followers: 1 });
      // Refusals are still each request's own: an unknown note, an unknown person.
      expect((await a.post("/v1/likes/999999999?t=note")).status).toBe(404);
      expect((await a.post("/v1/follows/999999999")).status).toBe(404);
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
    expect(await likesOf(notes[1])).toEqual([{ user_id: b.id }]);
    expect(await likesOf(notes[0])).toEqual([{ user_id: b.id }]);
    const { results } = await env.DB.prepare(
      "select actor_id, action from notifications where user_id = ? and action in ('like', 'follow') order by id",
    )
      .bind(c.id)
      .all();
    // a's like of note 2 and follow were taken back with their undo; b's stay.
    expect(results).toEqual([
      { actor_id: b.id, action: "like" },
      { actor_id: b.id, action: "like" },
      { actor_id: b.id, action: "follow" },
    ]);
  });
});
