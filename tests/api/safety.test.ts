// Issue 16: blocks, mutes, the moderation queue and its actions, and edit history, through HTTP on
// real migrations; every refusal leaves the database as it was, and the counters agree with the audit.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { snapshot } from "../db-snapshot";
import { type TestUser, user, users, visitor } from "../factories";
import { mailTo } from "../mail";

const setRole = (u: TestUser, role: string) =>
  env.DB.prepare("update users set role = ? where id = ?").bind(role, u.id).run();

async function moderator() {
  const m = await user();
  await setRole(m, "moderator");
  return m;
}

async function note(u: TestUser, text: string, extra: Record<string, unknown> = {}) {
  const res = await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>`, ...extra });
  expect(res.status).toBe(201);
  return res.body.note.id as number;
}

const ids = (list: { notes?: { id: number }[]; replies?: { id: number }[] }) =>
  (list.notes ?? list.replies ?? []).map((x) => x.id);
const stats = async (u: TestUser) => JSON.parse((await u.get(`/v1/users/${u.username}`)).body.jstats);

/** Calls `call` expecting `status`, and proves the database did not change. */
async function refused(call: () => Promise<{ status: number; body: { message?: string } }>, status: number) {
  const before = await snapshot();
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(await snapshot()).toBe(before);
  return res.body.message ?? "";
}

describe("blocks", () => {
  it("cuts follows both ways with exact counters, idempotently, and lists the blocked", async () => {
    const [a, b] = await users(2);
    await a.post(`/v1/follows/${b.id}`);
    await b.post(`/v1/follows/${a.id}`);
    await b.post(`/v1/likes/${await note(a, "hello")}?t=note`);
    expect((await a.get("/v1/notifications?page=1")).body.notis.length).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect((await a.post(`/v1/blocks/${b.id}`)).body).toEqual({ blocking: true });
    expect(await stats(a)).toMatchObject({ following: 0, follower: 0, noti: 0 });
    expect(await stats(b)).toMatchObject({ following: 0, follower: 0 });
    expect((await a.get("/v1/notifications?page=1")).body.notis).toEqual([]);
    const list = (await a.get("/v1/blocks?page=1")).body;
    expect(list.users.map((u: { id: number }) => u.id)).toEqual([b.id]);
    expect(list.paginator).toEqual({ page: 1, is_end: true });
    expect((await a.get(`/v1/users/${b.username}`)).body).toMatchObject({ blocking: true, blocked_by: false });
    expect((await b.get(`/v1/users/${a.username}`)).body).toMatchObject({ blocking: false, blocked_by: true });
    expect(await wrongCounters()).toEqual([]);
    expect((await a.delete(`/v1/blocks/${b.id}`)).body).toEqual({ blocking: false });
    expect((await a.delete(`/v1/blocks/${b.id}`)).body).toEqual({ blocking: false });
    expect((await a.get("/v1/blocks?page=1")).body.users).toEqual([]);
  });

  it("across a block a profile's type and label counts are empty, as its lists are", async () => {
    const [a, b] = await users(2);
    await note(a, "counted");
    expect((await a.post("/v1/folders", { type: "Project", name: "Lathe" })).status).toBe(201);
    const seen = (await b.get(`/v1/users/${a.username}`)).body;
    expect(seen.types).toEqual({ Project: 1 });
    expect(seen.labels).toEqual({ idea: 1 });
    await a.post(`/v1/blocks/${b.id}`);
    for (const [viewer, owner] of [
      [b, a],
      [a, b],
    ] as const) {
      const u = (await viewer.get(`/v1/users/${owner.username}`)).body;
      expect([u.types, u.labels, u.jstype, u.jslabel]).toEqual([{}, {}, "{}", "{}"]);
      expect((await viewer.get(`/v1/folders?uid=${owner.id}&sort=type&page=1`)).body.folders).toEqual([]);
    }
    // The person themselves still sees their own counts.
    expect((await a.get(`/v1/users/${a.username}`)).body.types).toEqual({ Project: 1 });
  });

  it("refuses self, unknown users and visitors without changing anything", async () => {
    const a = await user();
    await refused(() => a.post(`/v1/blocks/${a.id}`), 422);
    await refused(() => a.post("/v1/blocks/999999999"), 404);
    await refused(() => visitor().post(`/v1/blocks/${a.id}`), 401);
    await refused(() => visitor().get("/v1/blocks?page=1"), 401);
    await refused(() => a.post(`/v1/mutes/${a.id}`), 422);
  });

  it("forbids follow, like, reply, renote, quote and bookmark both ways with a clear 403", async () => {
    const [a, b] = await users(2);
    const na = await note(a, "blocker's");
    const nb = await note(b, "blocked's");
    const ra = (await a.post("/v1/replies", { parent: -na, content: "<p>mine</p>" })).body.id;
    await a.post(`/v1/blocks/${b.id}`);
    for (const [who, other, n, r] of [
      [b, a, na, ra],
      [a, b, nb, 0],
    ] as const) {
      const msg = await refused(() => who.post(`/v1/follows/${other.id}`), 403);
      expect(msg).toMatch(who === b ? /has blocked you/ : /You have blocked this user/);
      await refused(() => who.post(`/v1/likes/${n}?t=note`), 403);
      await refused(() => who.post("/v1/replies", { parent: -n, content: "<p>hi</p>" }), 403);
      await refused(() => who.post("/v1/renotes", { renote_id: n, content: "" }), 403);
      await refused(() => who.post("/v1/renotes", { renote_id: n, content: "<p>q</p>", quote: true }), 403);
      await refused(() => who.post(`/v1/bookmarks/${n}?t=note`), 403);
      if (r) {
        await refused(() => who.post(`/v1/likes/${r}?t=reply`), 403);
        await refused(() => who.post("/v1/replies", { parent: r, content: "<p>hi</p>" }), 403);
      }
    }
  });

  it("hides each side's content from the other everywhere, and only from them", async () => {
    const [a, b, c] = await users(3);
    const tag = `blk${Date.now() % 1e6}`;
    const na = await note(a, `from a #${tag}`);
    const nb = await note(b, `from b #${tag}`);
    await c.post(`/v1/renotes`, { renote_id: nb, content: "" });
    const rb = (await b.post("/v1/replies", { parent: -na, content: "<p>b replies</p>" })).body.id;
    await a.post(`/v1/follows/${b.id}`);
    await b.post(`/v1/follows/${c.id}`);
    await a.post(`/v1/follows/${c.id}`);
    await a.post(`/v1/blocks/${b.id}`);
    // The blocker sees nothing of the blocked: discover, feed (a renote of theirs too), tag, label, replies, profile.
    for (const path of [
      "/v1/discover?page=1",
      "/v1/feeds?page=1",
      `/v1/tags/${tag}?page=1`,
      "/v1/labels/idea?page=1",
    ]) {
      const seen = ids((await a.get(path)).body);
      expect(seen, path).not.toContain(nb);
    }
    const feedA = (await a.get("/v1/feeds?page=1")).body.notes;
    expect(feedA.some((n: { renote: { id: number } | null }) => n.renote?.id === nb)).toBe(false);
    expect(ids((await a.get(`/v1/replies?pid=${-na}&page=1`)).body)).not.toContain(rb);
    expect(ids((await a.get(`/v1/notes?uid=${b.id}&page=1`)).body)).toEqual([]);
    expect((await a.get(`/v1/notes/${b.username}/${nb}`)).status).toBe(404);
    expect((await a.get(`/v1/replies/${rb}/username/${b.username}`)).status).toBe(404);
    // The blocked sees nothing of the blocker's, and the blocker's lists of people are empty to them.
    expect(ids((await b.get(`/v1/tags/${tag}?page=1`)).body)).not.toContain(na);
    expect(ids((await b.get(`/v1/notes?uid=${a.id}&page=1`)).body)).toEqual([]);
    expect((await b.get(`/v1/notes/${a.username}/${na}`)).status).toBe(404);
    expect((await b.get(`/v1/follows/${a.id}/following?page=1`)).body.users).toEqual([]);
    const folder = (await a.post("/v1/folders", { type: "Skill", name: `Blk ${tag}` })).body;
    expect((await b.get(`/v1/folders?uid=${a.id}&sort=type&page=1`)).body.folders).toEqual([]);
    // Asked for by name (a profile's lists), the block hides them the same way.
    expect(ids((await b.get(`/v1/notes?username=${a.username}&page=1`)).body)).toEqual([]);
    expect((await b.get(`/v1/folders?username=${a.username}&sort=type&page=1`)).body.folders).toEqual([]);
    expect((await c.get(`/v1/folders?username=${a.username}&sort=type&page=1`)).body.folders).not.toEqual([]);
    expect((await b.get(`/v1/folders/${folder.slug}/user/${a.username}`)).status).toBe(404);
    // The folder's notes by its address: none to the blocked, the filed note to anyone else.
    const filed = (await a.post("/v1/notes", { label: "idea", content: "<p>filed</p>", folders: [folder.id] })).body;
    const at = `/v1/folders/${folder.slug}/user/${a.username}/notes?page=1`;
    expect(ids((await b.get(at)).body)).toEqual([]);
    expect(ids((await c.get(at)).body)).toEqual([filed.note.id]);
    expect((await c.get(`/v1/folders/${folder.slug}/user/${a.username}`)).status).toBe(200);
    // c's follower list shows a to the visitor and to c, but not to b (and not b to a).
    const followersOf = async (who: TestUser | ReturnType<typeof visitor>) =>
      (await who.get(`/v1/follows/${c.id}/followers?page=1`)).body.users.map((u: { id: number }) => u.id);
    expect(await followersOf(visitor())).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await followersOf(b)).not.toContain(a.id);
    expect(await followersOf(a)).not.toContain(b.id);
    // Others, and visitors, see both.
    const seen = ids((await c.get(`/v1/tags/${tag}?page=1`)).body);
    expect(seen).toEqual(expect.arrayContaining([na, nb]));
    expect(ids((await visitor().get(`/v1/replies?pid=${-na}&page=1`)).body)).toContain(rb);
    // Unblocking brings it all back.
    await a.delete(`/v1/blocks/${b.id}`);
    expect(ids((await a.get(`/v1/tags/${tag}?page=1`)).body)).toContain(nb);
  });
});

describe("mutes", () => {
  it("removes the muted person's notes, renotes, replies and notifications for the muter only", async () => {
    const [a, m, c] = await users(3);
    const tag = `mut${Date.now() % 1e6}`;
    const na = await note(a, `a #${tag}`);
    const nm = await note(m, `m #${tag}`);
    await a.post(`/v1/follows/${m.id}`);
    await a.post(`/v1/follows/${c.id}`);
    await c.post("/v1/renotes", { renote_id: nm, content: "" });
    const rm = (await m.post("/v1/replies", { parent: -na, content: "<p>m says</p>" })).body.id;
    expect((await a.get("/v1/notifications?page=1")).body.notis.length).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) expect((await a.post(`/v1/mutes/${m.id}`)).body).toEqual({ muting: true });
    expect((await a.get("/v1/mutes?page=1")).body.users.map((u: { id: number }) => u.id)).toEqual([m.id]);
    expect((await a.get(`/v1/users/${m.username}`)).body.muting).toBe(true);
    // The muter's lists lose them (a renote of theirs too); notifications from them are gone and stay gone.
    const feed = (await a.get("/v1/feeds?page=1")).body.notes;
    expect(feed.map((n: { id: number }) => n.id)).not.toContain(nm);
    expect(feed.some((n: { renote: { id: number } | null }) => n.renote?.id === nm)).toBe(false);
    expect(ids((await a.get(`/v1/tags/${tag}?page=1`)).body)).not.toContain(nm);
    expect(ids((await a.get(`/v1/replies?pid=${-na}&page=1`)).body)).not.toContain(rm);
    await m.post(`/v1/likes/${na}?t=note`);
    const notis = (await a.get("/v1/notifications?page=1")).body.notis;
    expect(notis.filter((n: { user: { id: number } }) => n.user.id === m.id)).toEqual([]);
    expect((await stats(a)).noti).toBe(0);
    expect(await wrongCounters()).toEqual([]);
    // A deliberate visit still shows them; they may still interact; nobody else is affected.
    expect(ids((await a.get(`/v1/notes?uid=${m.id}&page=1`)).body)).toContain(nm);
    expect((await a.get(`/v1/notes/${m.username}/${nm}`)).status).toBe(200);
    expect((await m.get(`/v1/users/${a.username}`)).body).toMatchObject({ muting: false, blocked_by: false });
    expect(ids((await m.get(`/v1/tags/${tag}?page=1`)).body)).toEqual(expect.arrayContaining([na, nm]));
    expect(ids((await c.get(`/v1/replies?pid=${-na}&page=1`)).body)).toContain(rm);
    await a.delete(`/v1/mutes/${m.id}`);
    expect(ids((await a.get(`/v1/tags/${tag}?page=1`)).body)).toContain(nm);
  });
});

describe("moderation", () => {
  it("answers 403 to users (401 to visitors) on every route, changing nothing", async () => {
    const [u, other] = await users(2);
    const n = await note(other, "x");
    for (const who of [u, visitor()]) {
      const status = who === u ? 403 : 401;
      await refused(() => who.get("/v1/moderation/reports?status=open&page=1"), status);
      await refused(() => who.get("/v1/moderation/log?page=1"), status);
      await refused(
        () => who.post("/v1/moderation/actions", { kind: "note", id: n, action: "hide", reason: "r" }),
        status,
      );
    }
    expect((await u.get("/v1/me")).body.role).toBe("user");
  });

  it("groups open reports by target with count, kinds, reporters and content", async () => {
    const [owner, r1, r2] = await users(3);
    const mod = await moderator();
    const n = await note(owner, `bad stuff ${Date.now()}`);
    await r1.post("/v1/reports", { nid: n, kind: 1 });
    await r2.post("/v1/reports", { nid: n, kind: 3 });
    const q = (await mod.get("/v1/moderation/reports?status=open&page=1")).body;
    const group = q.reports.find((g: { kind: string; id: number }) => g.kind === "note" && g.id === n);
    expect(group.count).toBe(2);
    expect(group.kinds.map((k: { name: string }) => k.name)).toEqual(["Spam", "Unwanted Sexual or Violent Content"]);
    expect(group.reporters.map((x: { username: string }) => x.username).sort()).toEqual(
      [r1.username, r2.username].sort(),
    );
    expect(group.content).toMatchObject({ id: n, username: owner.username, hidden: 0 });
    expect((await mod.get("/v1/me")).body.role).toBe("moderator");
  });

  it("hides a note: 404 to others, open to owner and moderators, out of lists, counters exact; restore undoes it", async () => {
    const [owner, fan, reporter] = await users(3);
    const mod = await moderator();
    const tag = `hid${Date.now() % 1e6}`;
    const keep = await note(owner, `keep #${tag}`);
    const bad = await note(owner, `bad #${tag}`);
    await fan.post("/v1/renotes", { renote_id: bad, content: "<p>quoting</p>", quote: true });
    const reply = (await fan.post("/v1/replies", { parent: -keep, content: "<p>rude</p>" })).body.id;
    await reporter.post("/v1/reports", { nid: bad, kind: 1 });
    await reporter.post("/v1/reports", { nid: reply, kind: 1, t: "rep" });
    const before = await stats(owner);

    await refused(() => mod.post("/v1/moderation/actions", { kind: "note", id: bad, action: "hide", reason: "" }), 422);
    for (let i = 0; i < 2; i++) {
      const res = await mod.post("/v1/moderation/actions", {
        kind: "note",
        id: bad,
        action: "hide",
        reason: "Spam links",
      });
      expect(res.status).toBe(200);
    }
    await mod.post("/v1/moderation/actions", { kind: "reply", id: reply, action: "hide", reason: "Harassment" });
    expect((await stats(owner)).note).toBe(before.note - 1);
    expect((await owner.get(`/v1/notes/${owner.username}/${keep}`)).body.repnum).toBe(0);
    expect(await wrongCounters()).toEqual([]);
    for (const who of [fan, visitor()]) expect((await who.get(`/v1/notes/${owner.username}/${bad}`)).status).toBe(404);
    expect((await owner.get(`/v1/notes/${owner.username}/${bad}`)).status).toBe(200);
    expect((await mod.get(`/v1/notes/${owner.username}/${bad}`)).status).toBe(200);
    for (const who of [owner, fan, mod]) {
      expect(ids((await who.get(`/v1/tags/${tag}?page=1`)).body)).toEqual([keep]);
      expect(ids((await who.get(`/v1/notes?uid=${owner.id}&page=1`)).body)).not.toContain(bad);
      expect(ids((await who.get(`/v1/replies?pid=${-keep}&page=1`)).body)).toEqual([]);
    }
    await refused(() => fan.post(`/v1/likes/${bad}?t=note`), 404);
    // The quote stays, its original shows as gone.
    const quote = (await fan.get(`/v1/notes?uid=${fan.id}&page=1`)).body.notes[0];
    expect(quote.renote).toBeNull();
    // Reports closed, logged, owner told why.
    const open = (await mod.get("/v1/moderation/reports?status=open&page=1")).body.reports;
    expect(open.find((g: { id: number; kind: string }) => g.kind === "note" && g.id === bad)).toBeUndefined();
    const closed = (await mod.get("/v1/moderation/reports?status=closed&page=1")).body.reports;
    expect(closed.find((g: { id: number; kind: string }) => g.kind === "note" && g.id === bad)).toBeTruthy();
    const log = (await mod.get("/v1/moderation/log?page=1")).body.entries;
    expect(log[0]).toMatchObject({ kind: "reply", target_id: reply, action: "hide", reason: "Harassment" });
    expect(log[1]).toMatchObject({ kind: "note", target_id: bad, action: "hide", owner: owner.username });
    const notice = (await owner.get("/v1/notifications?page=1")).body.notis.find(
      (n: { action: string }) => n.action === "mod_hide",
    );
    expect(notice).toMatchObject({ rowid: bad, extra: "Spam links", user: { fullname: "NoteX moderation" } });

    await mod.post("/v1/moderation/actions", { kind: "note", id: bad, action: "restore", reason: "On appeal" });
    await mod.post("/v1/moderation/actions", { kind: "reply", id: reply, action: "restore", reason: "On appeal" });
    expect((await stats(owner)).note).toBe(before.note);
    expect((await fan.get(`/v1/notes/${owner.username}/${bad}`)).status).toBe(200);
    expect(ids((await fan.get(`/v1/tags/${tag}?page=1`)).body)).toEqual([bad, keep]);
    expect((await owner.get(`/v1/notes/${owner.username}/${keep}`)).body.repnum).toBe(1);
    expect(await wrongCounters()).toEqual([]);
  });

  it("suspends: no login with a clear message, sessions end, content and profile gone; unsuspend undoes it", async () => {
    const [bad, fan] = await users(2);
    const mod = await moderator();
    const n = await note(bad, "suspend me");
    await mod.post("/v1/moderation/actions", { kind: "note", id: n, action: "suspend", reason: "Spam account" });
    expect((await bad.get("/v1/me")).status).toBe(401);
    expect((await bad.get("/v1/discover?page=1")).status).toBe(401);
    const login = await visitor().post("/v1/login", { username: bad.username, password: bad.password });
    expect(login.status).toBe(403);
    expect(login.body.message).toMatch(/suspended/);
    expect((await fan.get(`/v1/users/${bad.username}`)).status).toBe(404);
    expect((await mod.get(`/v1/users/${bad.username}`)).status).toBe(200);
    expect((await fan.get(`/v1/notes/${bad.username}/${n}`)).status).toBe(404);
    expect(ids((await fan.get("/v1/discover?page=1")).body)).not.toContain(n);
    await refused(() => fan.post(`/v1/follows/${bad.id}`), 404);
    // Moderators cannot suspend staff (admins can), nor themselves.
    const other = await moderator();
    await refused(
      () => mod.post("/v1/moderation/actions", { kind: "user", id: other.id, action: "suspend", reason: "x" }),
      403,
    );
    await refused(
      () => mod.post("/v1/moderation/actions", { kind: "user", id: mod.id, action: "suspend", reason: "x" }),
      422,
    );
    // The person cannot sign in to read the notice, so the reason goes by mail; their sessions are gone.
    const mail = await mailTo(bad.email, /suspended/);
    expect(mail.text).toContain("Reason: Spam account");
    expect(mail.text).not.toContain(mod.username);
    expect((await env.SESSIONS.list({ prefix: `session:${bad.id}:` })).keys).toEqual([]);
    expect((await bad.get("/v1/me")).status).toBe(401);
    await mod.post("/v1/moderation/actions", { kind: "user", id: bad.id, action: "unsuspend", reason: "Appeal" });
    expect((await mailTo(bad.email, /no longer suspended/)).text).toContain("Reason: Appeal");
    expect((await visitor().post("/v1/login", { username: bad.username, password: bad.password })).status).toBe(200);
    expect((await fan.get(`/v1/notes/${bad.username}/${n}`)).status).toBe(200);
    expect(await wrongCounters()).toEqual([]);
  });
});

describe("edit history", () => {
  it("keeps each replaced version, shows edited_at, and lists versions to whoever may read the note", async () => {
    const [a, b] = await users(2);
    const id = await note(a, "first");
    expect((await a.get(`/v1/notes/${a.username}/${id}`)).body.edited_at).toBeNull();
    expect((await a.patch("/v1/notes", { id, label: "idea", content: "<p>second</p>" })).status).toBe(200);
    expect((await a.patch("/v1/notes", { id, label: "tip", content: "<p>third</p>" })).status).toBe(200);
    const shown = (await b.get(`/v1/notes/${a.username}/${id}`)).body;
    expect(shown.edited_at).toBeGreaterThan(0);
    const h = (await visitor().get(`/v1/notes/${id}/history`)).body;
    expect(h.versions.map((v: { txt: string; label: string }) => [v.txt, v.label])).toEqual([
      ["third", "tip"],
      ["second", "idea"],
      ["first", "idea"],
    ]);
    expect(h.versions[0].edited_at).toBe(shown.edited_at);
    await refused(() => b.patch("/v1/notes", { id, label: "idea", content: "<p>hijack</p>" }), 404);
    await a.post(`/v1/blocks/${b.id}`);
    expect((await b.get(`/v1/notes/${id}/history`)).status).toBe(404);
    expect((await visitor().get("/v1/notes/999999999/history")).status).toBe(404);
  });
});
