// Issue 19: O(1) counters. Every counter moves by the rows its write really changed, in the same
// db.batch: by a trigger on the rows it counts, or by a statement whose own `where` holds exactly
// when the write changes a row (never by changes() of a neighbouring statement). Each counter
// under repeats and races (the audit of `npm run recount` must find nothing), and finally that a
// like's cost does not grow with likes.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { type TestUser, user, users } from "../factories";

const col = async (sql: string, id: number) => (await env.DB.prepare(sql).bind(id).first<{ n: number }>())!.n;

const all = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

describe("every counter stays exact under repeats and races (issue 19)", () => {
  it("likes, renotes, replies and follows: the same write twice, and ten at once, count once", async () => {
    const author = await user();
    // A pair of people per kind of write: one person's 24 writes of a kind stay inside their
    // RL_WRITE budget (60 per 10 s), so a 429 never stands in for a repeat.
    const [a, b, c, d, e, f, g, h] = await users(8);
    const noteId = (await author.post("/v1/notes", { label: "idea", content: "<p>popular</p>" })).body.note.id;
    const replyId = (await author.post("/v1/replies", { parent: -noteId, content: "<p>r</p>" })).body.id;
    const repeat = async (u: TestUser, call: (u: TestUser) => Promise<{ status: number }>) => {
      const answers = [await call(u), await call(u), ...(await all(10, () => call(u)))];
      expect(answers.filter((r) => r.status === 429)).toEqual([]);
    };
    const writes = {
      likeNote: [a, b],
      likeReply: [c, d],
      follow: [e, f],
      renote: [g, h],
    };
    for (const u of writes.likeNote) await repeat(u, (x) => x.post(`/v1/likes/${noteId}?t=note`));
    for (const u of writes.likeReply) await repeat(u, (x) => x.post(`/v1/likes/${replyId}?t=reply`));
    for (const u of writes.follow) await repeat(u, (x) => x.post(`/v1/follows/${author.id}`));
    for (const u of writes.renote) await repeat(u, (x) => x.post("/v1/renotes", { renote_id: noteId, content: "" }));
    const note = (await a.get(`/v1/notes/${noteId}`)).body;
    expect(note).toMatchObject({ likenum: 2, renum: 2, repnum: 1 });
    expect(await col("select follower_num n from users where id = ?", author.id)).toBe(2);
    expect(await col("select following_num n from users where id = ?", e.id)).toBe(1);
    expect(await wrongCounters()).toEqual([]);

    // Undo, twice and racing: each counter drops by exactly what was there.
    await repeat(a, (x) => x.delete(`/v1/likes/${noteId}?t=note`));
    await repeat(c, (x) => x.delete(`/v1/likes/${replyId}?t=reply`));
    await repeat(e, (x) => x.delete(`/v1/follows/${author.id}`));
    await repeat(g, (x) => x.delete(`/v1/renotes/${noteId}`));
    expect((await a.get(`/v1/notes/${noteId}`)).body).toMatchObject({ likenum: 1, renum: 1 });
    expect(await col("select follower_num n from users where id = ?", author.id)).toBe(1);
    expect(await wrongCounters()).toEqual([]);

    // Replies: ten racing children of one reply, then the same delete raced.
    const kids = await all(10, () => b.post("/v1/replies", { parent: replyId, content: "<p>k</p>" }));
    await all(3, () => b.delete(`/v1/replies/${kids[0].body.id}`));
    await all(3, () => author.delete(`/v1/replies/${replyId}`));
    expect((await a.get(`/v1/notes/${noteId}`)).body).toMatchObject({ repnum: 0 });
    expect(await wrongCounters()).toEqual([]);
  });

  it("notes, x-labels, folders and folder types: racing edits and deletes keep every count exact", async () => {
    const a = await user();
    const [f1, f2] = (
      await Promise.all([
        a.post("/v1/folders", { type: "Company", name: "Acme", descr: "", link: "" }),
        a.post("/v1/folders", { type: "Project", name: "Moon", descr: "", link: "" }),
      ])
    ).map((r) => r.body);
    const made = await all(6, (i) =>
      a.post("/v1/notes", { label: i % 2 ? "idea" : "tip", content: `<p>n${i}</p>`, folders: [f1.id] }),
    );
    const ids = made.map((r) => r.body.note.id as number);
    expect(await wrongCounters()).toEqual([]);
    // The same note edited three ways at once: label and folders race.
    await all(3, (i) =>
      a.patch("/v1/notes", {
        id: ids[0],
        label: ["idea", "tip", "news"][i],
        content: "<p>edited</p>",
        folders: [[f1.id], [f2.id], [f1.id, f2.id]][i],
      }),
    );
    expect(await wrongCounters()).toEqual([]);
    // A folder's type edited two ways at once, and a note deleted three times at once.
    await all(2, (i) =>
      a.patch(`/v1/folders/${f2.id}`, { type: ["Skill", "Company"][i], name: "Moon", descr: "", link: "" }),
    );
    await all(3, () => a.delete(`/v1/notes/${ids[1]}`));
    expect(await wrongCounters()).toEqual([]);
    expect(await col("select note_num n from users where id = ?", a.id)).toBe(5);
    // A quote counts as the quoter's note and the original's renote; deleting it takes both back.
    const q = (await a.post("/v1/renotes", { renote_id: ids[2], content: "<p>so true</p>" })).body.id;
    await all(2, () => a.delete(`/v1/notes/${q}`));
    expect((await a.get(`/v1/notes/${ids[2]}`)).body).toMatchObject({ renum: 0 });
    expect(await wrongCounters()).toEqual([]);
  });

  it("unread notifications: a repeat notifies once, an undo of an unread one takes it off, of a read one not", async () => {
    const author = await user();
    const [a, b] = await users(2);
    const noteId = (await author.post("/v1/notes", { label: "idea", content: "<p>x</p>" })).body.note.id;
    await all(5, () => a.post(`/v1/likes/${noteId}?t=note`));
    await b.post(`/v1/likes/${noteId}?t=note`);
    const noti = () => col("select noti_num n from users where id = ?", author.id);
    expect(await noti()).toBe(2);
    await author.post("/v1/notifications/read");
    expect(await noti()).toBe(0);
    await all(3, () => a.delete(`/v1/likes/${noteId}?t=note`)); // was read: the badge stays 0
    expect(await noti()).toBe(0);
    await a.post(`/v1/likes/${noteId}?t=note`); // unread again
    await all(3, () => a.delete(`/v1/likes/${noteId}?t=note`));
    expect(await noti()).toBe(0);
    await a.post(`/v1/follows/${author.id}`);
    expect(await noti()).toBe(1);
    // Deleting the note takes back the unread notifications about it, and only those.
    await a.post(`/v1/likes/${noteId}?t=note`);
    expect(await noti()).toBe(2);
    await author.delete(`/v1/notes/${noteId}`);
    expect(await noti()).toBe(1);
    expect(await wrongCounters()).toEqual([]);
  });
});
