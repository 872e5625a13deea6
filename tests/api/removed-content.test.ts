// What a moderator removes (a hidden note or reply, a suspended account) and what a block hides is
// gone from every read that could still show it: the notifications it caused, the thread under it,
// reply search, and the suspended person's follow lists. Restoring brings it all back.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type TestUser, user, users, visitor } from "../factories";

let seq = 0;
const word = (stem = "rm") => `${stem}${Date.now().toString(36)}${(seq++).toString(36)}x`;

async function moderator() {
  const m = await user();
  await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(m.id).run();
  return m;
}

async function note(u: TestUser, text: string) {
  const res = await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` });
  expect(res.status).toBe(201);
  return res.body.note.id as number;
}

async function reply(u: TestUser, parent: number, text: string) {
  const res = await u.post("/v1/replies", { parent, content: `<p>${text}</p>` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

const act = async (mod: TestUser, kind: string, id: number, action: string) =>
  expect((await mod.post("/v1/moderation/actions", { kind, id, action, reason: "r" })).status).toBe(200);

/** Everything the reader's notifications show: the actions, the actors and the copied text. */
async function notices(u: TestUser) {
  const res = await u.get("/v1/notifications?page=1");
  expect(res.status).toBe(200);
  return JSON.stringify(res.body.notis);
}

const replyIds = async (who: TestUser, noteId: number) => {
  const res = await who.get(`/v1/replies?pid=${-noteId}&page=1`);
  return res.status === 200 ? res.body.replies.map((r: { id: number }) => r.id) : [];
};
const searchReplies = async (who: TestUser, q: string) =>
  (await who.get(`/v1/search?q=${q}&t=replies`)).body.replies.map((r: { id: number }) => r.id);

describe("removed content in notifications", () => {
  it("a hidden note or reply leaves the notifications of the people it notified; restoring brings it back", async () => {
    const [author, reader] = await users(2);
    const mod = await moderator();
    await reader.post(`/v1/follows/${author.id}`);
    await author.post(`/v1/follows/${reader.id}`);
    const [w1, w2] = [word(), word()];
    const noteId = await note(author, `new note ${w1}`);
    const replyId = await reply(author, -(await note(reader, "my note")), `reply ${w2}`);
    const before = await notices(reader);
    expect(before).toContain(w1);
    expect(before).toContain(w2);

    await act(mod, "note", noteId, "hide");
    await act(mod, "reply", replyId, "hide");
    const hidden = await notices(reader);
    expect(hidden).not.toContain(w1);
    expect(hidden).not.toContain(w2);
    // The author is not suspended: their follow notice stays.
    expect(hidden).toContain(author.username);

    await act(mod, "note", noteId, "restore");
    await act(mod, "reply", replyId, "restore");
    const back = await notices(reader);
    expect(back).toContain(w1);
    expect(back).toContain(w2);
  });

  it("a suspended account's notifications (text and name) leave everyone's list; unsuspending brings them back", async () => {
    const [bad, reader] = await users(2);
    const mod = await moderator();
    const w = word();
    const mine = await note(reader, "mine");
    await bad.post(`/v1/follows/${reader.id}`);
    await bad.post(`/v1/likes/${mine}?t=note`);
    await reply(bad, -mine, `reply ${w}`);
    expect(await notices(reader)).toContain(bad.username);

    await act(mod, "user", bad.id, "suspend");
    const gone = await notices(reader);
    expect(gone).not.toContain(bad.username);
    expect(gone).not.toContain(w);

    await act(mod, "user", bad.id, "unsuspend");
    const back = await notices(reader);
    expect(back).toContain(bad.username);
    expect(back).toContain(w);
  });
});

describe("threads under removed content", () => {
  it("the replies under a hidden note leave its thread and reply search for everyone but the owner and moderators", async () => {
    const [owner, replier] = await users(2);
    const mod = await moderator();
    const w = word();
    const n = await note(owner, "to be hidden");
    const r = await reply(replier, -n, `under hidden ${w}`);
    expect(await replyIds(visitor() as TestUser, n)).toEqual([r]);
    expect(await searchReplies(visitor() as TestUser, w)).toEqual([r]);

    await act(mod, "note", n, "hide");
    for (const who of [visitor() as TestUser, replier]) {
      expect(await replyIds(who, n)).toEqual([]);
      expect(await searchReplies(who, w)).toEqual([]);
    }
    // Its reply's own page goes with the thread.
    expect((await visitor().get(`/v1/replies/${r}/username/${replier.username}`)).status).toBe(404);
    // The owner and moderators still read it, as they read the note.
    expect(await replyIds(owner, n)).toEqual([r]);
    expect(await replyIds(mod, n)).toEqual([r]);

    await act(mod, "note", n, "restore");
    expect(await replyIds(visitor() as TestUser, n)).toEqual([r]);
    expect(await searchReplies(visitor() as TestUser, w)).toEqual([r]);
  });

  it("the replies under a suspended author's note leave its thread and reply search", async () => {
    const [bad, replier] = await users(2);
    const mod = await moderator();
    const w = word();
    const n = await note(bad, "by someone about to be suspended");
    const r = await reply(replier, -n, `under suspended ${w}`);
    await act(mod, "user", bad.id, "suspend");
    expect(await replyIds(visitor() as TestUser, n)).toEqual([]);
    expect(await searchReplies(visitor() as TestUser, w)).toEqual([]);
    expect((await visitor().get(`/v1/replies/${r}/username/${replier.username}`)).status).toBe(404);
    await act(mod, "user", bad.id, "unsuspend");
    expect(await replyIds(visitor() as TestUser, n)).toEqual([r]);
  });

  it("a signed-in viewer blocked by a note's author reads none of the replies under it", async () => {
    const [author, viewer, third] = await users(3);
    const w = word();
    const n = await note(author, "blocker's note");
    const r = await reply(third, -n, `third party ${w}`);
    expect(await replyIds(viewer, n)).toEqual([r]);
    expect((await author.post(`/v1/blocks/${viewer.id}`)).status).toBe(200);
    expect(await replyIds(viewer, n)).toEqual([]);
    expect(await searchReplies(viewer, w)).toEqual([]);
    expect((await viewer.get(`/v1/replies/${r}/username/${third.username}`)).status).toBe(404);
    // Everyone else still reads the thread.
    expect(await replyIds(third, n)).toEqual([r]);
    expect(await searchReplies(visitor() as TestUser, w)).toEqual([r]);
  });

  it("a suspended account's followers and following answer 404 (moderators still read them)", async () => {
    const [bad, fan] = await users(2);
    const mod = await moderator();
    await fan.post(`/v1/follows/${bad.id}`);
    await bad.post(`/v1/follows/${fan.id}`);
    for (const which of ["followers", "following"])
      expect((await visitor().get(`/v1/follows/${bad.id}/${which}?page=1`)).status).toBe(200);
    await act(mod, "user", bad.id, "suspend");
    for (const which of ["followers", "following"]) {
      expect((await visitor().get(`/v1/follows/${bad.id}/${which}?page=1`)).status, which).toBe(404);
      expect((await fan.get(`/v1/follows/${bad.id}/${which}?page=1`)).status, which).toBe(404);
      expect((await mod.get(`/v1/follows/${bad.id}/${which}?page=1`)).status, which).toBe(200);
    }
    // An account that does not exist is the same 404.
    expect((await visitor().get("/v1/follows/999999999/followers?page=1")).status).toBe(404);
    await act(mod, "user", bad.id, "unsuspend");
    expect((await visitor().get(`/v1/follows/${bad.id}/followers?page=1`)).status).toBe(200);
  });
});
