import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { type TestUser, user, visitor } from "../factories";

// Every test searches for words of its own, so tests never see each other's rows.
let seq = 0;
const word = (stem = "zq") => `${stem}${Date.now().toString(36)}${(seq++).toString(36)}x`;

const note = async (u: TestUser, text: string) => {
  const res = await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` });
  expect(res.status).toBe(201);
  return res.body.note.id as number;
};
const find = (q: string, t = "notes", extra = "") =>
  visitor().get(`/v1/search?q=${encodeURIComponent(q)}&t=${t}${extra}`);
const ids = (res: { body: Record<string, { id: number }[]> }, t = "notes") => res.body[t].map((x) => x.id);

describe("search: notes", () => {
  it("ranks by bm25 (more of the words, shorter text first) and newest first among equals", async () => {
    const a = await user();
    const w = word();
    const once = await note(a, `${w} appears once in this rather long note about many other things entirely`);
    const twice = await note(a, `${w} ${w} twice`);
    const tieOld = await note(a, `${w} tie`);
    const tieNew = await note(a, `${w} tie`);
    const res = await find(w);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([twice, tieNew, tieOld, once]);
    expect(res.body.paginator).toEqual({ page: 1, is_end: true });
    expect(res.body.notes[0]).toMatchObject({ id: twice, user: { username: a.username }, label: "idea" });
  });

  it("matches prefixes, ignores case and diacritics, and highlights the hit as text runs", async () => {
    const a = await user();
    const stem = word("pfx");
    const id = await note(a, `Café crème and ${stem}writing &lt;b&gt;`);
    for (const q of ["cafe", "CAFÉ", "creme", "CRÈME"]) expect(ids(await find(`${q} ${stem}`)), q).toEqual([id]);
    for (const q of [stem, `${stem}wri`, `CAFE ${stem}WRITI`]) expect(ids(await find(q)), q).toEqual([id]);
    const hit = (await find(`cafe ${stem}`)).body.notes[0];
    // Odd runs are the matches; the text stays text (no markup is ever built from it).
    expect(hit.snippet.filter((_: string, i: number) => i % 2)).toEqual(["Café", `${stem}writing`]);
    expect(hit.snippet.join("")).toContain("<b>");
    // A one-letter last word is a word, not a prefix (too wide to be useful or cheap).
    expect(ids(await find(`${stem}writing c`))).toEqual([]);
  });

  it("follows edits and deletes, and never shows a renote as a hit", async () => {
    const [a, b] = [await user(), await user()];
    const [w1, w2] = [word(), word()];
    const id = await note(a, `${w1} first`);
    expect((await b.post("/v1/renotes", { renote_id: id, content: "" })).status).toBe(201);
    expect(ids(await find(w1))).toEqual([id]);
    expect((await a.patch("/v1/notes", { id, label: "idea", content: `<p>${w2} second</p>` })).status).toBe(200);
    expect(ids(await find(w1))).toEqual([]);
    expect(ids(await find(w2))).toEqual([id]);
    expect((await a.delete(`/v1/notes/${id}`)).status).toBe(200);
    expect(ids(await find(w2))).toEqual([]);
  });

  it("pages with a cursor that later notes do not shift, and by the spec's page numbers", async () => {
    const a = await user();
    const w = word();
    const made: number[] = [];
    for (let i = 0; i < 23; i++) made.push(await note(a, `${w} number ${i}`));
    const first = await find(w);
    expect(first.body.notes).toHaveLength(20);
    expect(first.body.paginator.is_end).toBe(false);
    // Written between the pages: not on page 2 (it would push a row back into view).
    await note(a, `${w} late`);
    const second = await find(w, "notes", `&cursor=${first.body.cursor}`);
    expect(second.body.paginator).toEqual({ page: 1, is_end: true });
    const seen = [...ids(first), ...ids(second)];
    expect(new Set(seen).size).toBe(23);
    expect(seen.sort((x, y) => x - y)).toEqual(made);
    expect(ids(await find(w, "notes", "&page=2"))).toHaveLength(4);
    expect((await find(w, "notes", "&cursor=bm90IGpzb24")).status).toBe(400);
    expect((await find(w, "notes", "&page=999")).body).toEqual({
      notes: [],
      paginator: { page: 999, is_end: true },
      cursor: null,
    });
  });

  it("answers hostile queries with results or an empty list, never an error", async () => {
    const a = await user();
    const w = word();
    const id = await note(a, `${w} NEAR quoted "text" txt:column`);
    const hostile = [
      `"${w}`,
      `${w}"`,
      `${w} OR`,
      `NEAR(${w} x)`,
      `${w} AND NOT`,
      `txt:${w}`,
      `{txt}: ${w}`,
      `^${w}`,
      `${w}*`,
      "*",
      "**",
      '"',
      "'",
      "()",
      "-",
      "NOT",
      "AND OR NOT NEAR",
      "\u0000",
      "\u0301",
      "😀",
      "ﷺ ﷽",
      "%' OR 1=1 --",
      "a".repeat(10_000),
      `${w} `.repeat(2000),
      "x ".repeat(5000),
    ];
    for (const q of hostile) {
      for (const t of ["notes", "replies", "folders", "users"]) {
        const res = await find(q, t);
        expect(res.status, `${t}: ${q.slice(0, 40)}`).toBe(200);
        expect(Array.isArray(res.body[t])).toBe(true);
      }
    }
    for (const q of [`"${w}`, `txt:${w}`, `NEAR(${w} quoted)`, `${w}*`, `^${w}`])
      expect(ids(await find(q)), q).toEqual([id]);
    expect((await visitor().get("/v1/search")).body).toMatchObject({ notes: [] });
    expect((await visitor().get(`/v1/search?q=${w}&t=bogus`)).body.notes.map((n: { id: number }) => n.id)).toEqual([
      id,
    ]);
  });
});

describe("search: replies, folders and people", () => {
  it("finds replies, and folders by name before description", async () => {
    const a = await user();
    const w = word();
    const nid = await note(a, "plain");
    const reply = await a.post("/v1/replies", { parent: -nid, content: `<p>${w} in a reply</p>` });
    expect(ids(await find(w, "replies"), "replies")).toEqual([reply.body.id]);
    const inDescr = await a.post("/v1/folders", { type: "Skill", name: "Cooking", descr: `all about ${w}`, link: "" });
    const inName = await a.post("/v1/folders", { type: "Company", name: `${w} Ltd`, descr: "", link: "" });
    const res = await find(w, "folders");
    expect(ids(res, "folders")).toEqual([inName.body.id, inDescr.body.id]);
    expect(res.body.folders[0]).toMatchObject({ slug: inName.body.slug, user: { username: a.username } });
    expect(res.body.folders[0].name_hl).toEqual(["", w, " Ltd"]);
    await a.patch(`/v1/folders/${inName.body.id}`, { type: "Company", name: "Renamed", descr: "", link: "" });
    expect(ids(await find(w, "folders"), "folders")).toEqual([inDescr.body.id]);
  });

  it("finds people by username prefix, then by name prefix, and pages through both", async () => {
    const stem = word("pp");
    const byUsername = [];
    for (let i = 0; i < 3; i++) byUsername.push(await user({ username: `${stem}${i}`, name: "Someone Else" }));
    const byName = [];
    for (let i = 0; i < 19; i++) byName.push(await user({ name: `${stem.toUpperCase()} Person ${i}` }));
    // Matches both ways: listed once, with the usernames.
    const both = await user({ username: `${stem}9`, name: `${stem} Both` });
    const first = await find(`@${stem}`, "users");
    expect(first.status).toBe(200);
    expect(first.body.users.slice(0, 4).map((u: { username: string }) => u.username)).toEqual([
      `${stem}0`,
      `${stem}1`,
      `${stem}2`,
      `${stem}9`,
    ]);
    expect(first.body.users).toHaveLength(20);
    const second = await find(stem, "users", `&cursor=${first.body.cursor}`);
    expect(second.body.paginator.is_end).toBe(true);
    const all = [...ids(first, "users"), ...ids(second, "users")];
    expect(all).toHaveLength(23);
    expect(new Set(all)).toEqual(new Set([...byUsername, ...byName, both].map((u) => u.id)));
    expect(ids(await find(`${stem} person 1`, "users"), "users")).toEqual(
      [byName[1], ...byName.slice(10)].map((u) => u.id),
    );
    expect(first.body.users[0]).toEqual({
      id: byUsername[0].id,
      username: `${stem}0`,
      fullname: "Someone Else",
      avatar: "",
      descr: "",
      me: false,
    });
  });
});

describe("search: people by any word of their name", () => {
  it("finds a later word of a name (any case, accents folded), after the prefix matches, and pages through it", async () => {
    const w = word("nw");
    const ada = await user({ name: `Ada ${w}lace` });
    const accented = await user({ name: `Zoë Élan ${w}` });
    const prefixed = await user({ name: `${w} First` });
    const ids_ = (res: Awaited<ReturnType<typeof find>>) => ids(res, "users");
    expect(ids_(await find(`${w}LACE`, "users"))).toEqual([ada.id]);
    // The name's own prefix comes first, then later words in the order people joined.
    expect(ids_(await find(w, "users"))).toEqual([prefixed.id, ada.id, accented.id]);
    expect(ids_(await find(`elan ${w}`, "users"))).toEqual([accented.id]);
    expect(ids_(await find(`ada ${w.slice(0, 4)}`, "users"))).toEqual([ada.id]);
    expect(ids_(await find(`${w} nobody`, "users"))).toEqual([]);
    const renamed = await user({ name: "Plain Name" });
    await renamed.patch("/v1/users", { name: `Now ${w}son`, descr: "" });
    expect(ids_(await find(`${w}son`, "users"))).toEqual([renamed.id]);
    // Quotes and operators are only text; a query with no letters finds nobody and never fails.
    for (const q of [`"${w}*" OR`, '" *', "-", `${w}" (`]) expect((await find(q, "users")).status, q).toBe(200);
    expect(ids_(await find(`"${w}lace`, "users"))).toEqual([ada.id]);

    // 22 people with the word late in their name: the pages walk users_fts by id.
    const many = [];
    for (let i = 0; i < 22; i++) many.push((await user({ name: `Member ${i} Of ${w}crew` })).id);
    const first = await find(`${w}crew`, "users");
    expect(ids_(first)).toEqual(many.slice(0, 20));
    const second = await find(`${w}crew`, "users", `&cursor=${first.body.cursor}`);
    expect(ids_(second)).toEqual(many.slice(20));
    expect(second.body.paginator.is_end).toBe(true);
    await env.DB.prepare("insert into users_fts(users_fts, rank) values ('integrity-check', 1)").run();
  });
});

describe("search: account deletion (issue 17)", () => {
  it("takes a deleted person's notes, replies and folders out of every index, and the indexes stay whole", async () => {
    const [gone, stays, named] = [await user(), await user(), await user()];
    const w = word();
    const own = await note(gone, `${w} note of the leaver`);
    const kept = await note(stays, `${w} note of the stayer`);
    // A reply of theirs under someone else's note, and someone else's reply under their note.
    const theirReply = await gone.post("/v1/replies", { parent: -kept, content: `<p>${w} leaver reply</p>` });
    const otherReply = await stays.post("/v1/replies", {
      parent: -own,
      content: `<p>${w} stayer reply to @${named.username}</p>`,
    });
    await gone.post("/v1/folders", { type: "Skill", name: `${w} folder`, descr: "", link: "" });
    expect(ids(await find(w))).toEqual(expect.arrayContaining([own, kept]));
    expect((await named.get("/v1/notifications")).body.notis).toHaveLength(1);
    expect(ids(await find(w, "replies"), "replies")).toHaveLength(2);
    expect(ids(await find(w, "folders"), "folders")).toHaveLength(1);
    expect(ids(await find(gone.username, "users"), "users")).toEqual([gone.id]);

    const res = await gone.request("DELETE", "/v1/users", { password: gone.password });
    expect(res.status).toBe(200);
    expect(ids(await find(w))).toEqual([kept]);
    // Their reply goes, and so does the reply under their note (it went with the note).
    expect(ids(await find(w, "replies"), "replies")).toEqual([]);
    expect([theirReply.status, otherReply.status]).toEqual([201, 201]);
    // The mention in that reply went with it, and the badge it raised with it.
    expect((await named.get("/v1/notifications")).body.notis).toEqual([]);
    expect(JSON.parse((await named.get("/v1/me")).body.jstats).noti).toBe(0);
    expect(ids(await find(w, "folders"), "folders")).toEqual([]);
    expect(ids(await find(gone.username, "users"), "users")).toEqual([]);
    // FTS5's own check: every index agrees token for token with the rows it is built from.
    for (const t of ["notes_fts", "replies_fts", "folders_fts", "users_fts"])
      await env.DB.prepare(`insert into ${t}(${t}, rank) values ('integrity-check', 1)`).run();
  });
});

describe("search: what a viewer may see (issue 16)", () => {
  it("leaves out hidden content, suspended authors and blocks either way, mutes for the muter only", async () => {
    const [viewer, blocked, blocker, muted, suspended, plain] = await Promise.all(
      Array.from({ length: 6 }, () => user()),
    );
    const w = word();
    const say = (u: TestUser, extra = "") => note(u, `${w} ${extra}`);
    const hidden = await say(plain, "hidden by a moderator");
    const shown = await say(plain, "shown");
    const ids6 = {
      blocked: await say(blocked),
      blocker: await say(blocker),
      muted: await say(muted),
      suspended: await say(suspended),
    };
    const reply = await blocked.post("/v1/replies", { parent: -shown, content: `<p>${w} blocked reply</p>` });
    const folder = await blocked.post("/v1/folders", {
      type: "Skill",
      name: `${w} blocked folder`,
      descr: "",
      link: "",
    });
    await env.DB.batch([
      env.DB.prepare("update notes set hidden_at = 1 where id = ?").bind(hidden),
      env.DB.prepare("update users set suspended_at = 1 where id = ?").bind(suspended.id),
    ]);
    expect((await viewer.post(`/v1/blocks/${blocked.id}`)).status).toBe(200);
    expect((await blocker.post(`/v1/blocks/${viewer.id}`)).status).toBe(200);
    expect((await viewer.post(`/v1/mutes/${muted.id}`)).status).toBe(200);

    const seen = async (who: TestUser | null, t = "notes") => {
      const res = await (who ?? visitor()).get(`/v1/search?q=${w}&t=${t}`);
      expect(res.status).toBe(200);
      return ids(res, t).sort((x, y) => x - y);
    };
    expect(await seen(viewer)).toEqual([shown]);
    // A visitor sees all but hidden and suspended; blocks and mutes are the viewer's own.
    expect(await seen(null)).toEqual([shown, ids6.blocked, ids6.blocker, ids6.muted].sort((x, y) => x - y));
    expect(await seen(viewer, "replies")).toEqual([]);
    expect(await seen(null, "replies")).toEqual([reply.body.id]);
    expect(await seen(viewer, "folders")).toEqual([]);
    expect(await seen(null, "folders")).toEqual([folder.body.id]);
    // People: blocked either way and suspended are not found; a muted person is (to unmute them).
    for (const [u, found] of [
      [blocked, false],
      [blocker, false],
      [suspended, false],
      [muted, true],
    ] as const) {
      const res = await viewer.get(`/v1/search?q=${u.username}&t=users`);
      expect(ids(res, "users").includes(u.id), u.username).toBe(found);
    }
  });

  it("links and notifies no one across a block, nor a suspended account", async () => {
    const [author, blocks, suspended, friend] = await Promise.all(Array.from({ length: 4 }, () => user()));
    await blocks.post(`/v1/blocks/${author.id}`);
    await env.DB.prepare("update users set suspended_at = 1 where id = ?").bind(suspended.id).run();
    const res = await author.post("/v1/notes", {
      label: "idea",
      content: `<p>hi @${blocks.username} @${suspended.username} @${friend.username}</p>`,
    });
    expect(res.status).toBe(201);
    const content = (await visitor().get(`/v1/notes/${res.body.note.id}`)).body.content as string;
    expect(content).toContain(`<a href="/${friend.username}" class="mention">`);
    expect(content).not.toContain(`href="/${blocks.username}"`);
    expect(content).not.toContain(`href="/${suspended.username}"`);
    expect((await friend.get("/v1/notifications")).body.notis).toHaveLength(1);
    expect((await blocks.get("/v1/notifications")).body.notis).toEqual([]);
  });
});

describe("search: @-mention suggestions (t=users&suggest=1)", () => {
  const suggest = (who: TestUser | null, q: string) =>
    (who ?? visitor()).get(`/v1/search?t=users&suggest=1&q=${encodeURIComponent(q)}`);
  const names = (res: { body: { users: { username: string }[] } }) => res.body.users.map((u) => u.username);

  it("offers the exact username, then people you follow, then the rest by username, then by name; not you", async () => {
    const stem = `m${Date.now().toString(36)}${(seq++).toString(36)}`;
    const viewer = await user({ username: `${stem}zme` });
    const exact = await user({ username: stem });
    const [a, b, c] = [
      await user({ username: `${stem}a` }),
      await user({ username: `${stem}b` }),
      await user({ username: `${stem}c` }),
    ];
    const byName = await user({ name: `${stem} Lovelace` });
    expect((await viewer.post(`/v1/follows/${c.id}`)).status).toBe(200);
    expect((await viewer.post(`/v1/follows/${byName.id}`)).status).toBe(200);

    const res = await suggest(viewer, `@${stem}`);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual([exact.username, c.username, byName.username, a.username, b.username]);
    expect(res.body.users[1]).toMatchObject({ id: c.id, fullname: "Test User", following: true });
    expect(res.body.users[3].following).toBe(false);
    expect(res.body).toMatchObject({ paginator: { page: 1, is_end: true }, cursor: null });
    // Typing on narrows the prefix; case does not matter; a visitor gets the same people, no one followed.
    expect(names(await suggest(viewer, `${stem.toUpperCase()}B`))).toEqual([b.username]);
    const anon = await suggest(null, stem);
    expect(names(anon)).toEqual([exact, a, b, c, viewer, byName].map((u) => u.username));
    expect(anon.body.users.every((u: { following: boolean }) => !u.following)).toBe(true);
  });

  it("leaves out people blocked either way and suspended ones, shows at most 8, and never fails", async () => {
    const stem = `n${Date.now().toString(36)}${(seq++).toString(36)}`;
    const viewer = await user();
    const many = [];
    for (let i = 0; i < 10; i++) many.push(await user({ username: `${stem}${i}` }));
    await viewer.post(`/v1/blocks/${many[0].id}`);
    await many[1].post(`/v1/blocks/${viewer.id}`);
    await env.DB.prepare("update users set suspended_at = 1 where id = ?").bind(many[2].id).run();
    const res = await suggest(viewer, stem);
    expect(names(res)).toEqual(many.slice(3, 11).map((u) => u.username));
    for (const q of ["@", "", "'\"()*", "a".repeat(10_000), "@@@x y"]) {
      const r = await suggest(viewer, q);
      expect(r.status, q.slice(0, 10)).toBe(200);
      expect(Array.isArray(r.body.users)).toBe(true);
    }
  });
});

describe("search: signed in", () => {
  it("is one D1 round trip (the session is read from KV, not D1), and an ended session is refused", async () => {
    const a = await user();
    const w = word();
    await note(a, `${w} rides`);
    const trips = async (path: string) => {
      const res = await a.get(path);
      expect(res.status, path).toBe(200);
      return tripsOf(res.headers.get("server-timing"));
    };
    const reads = [
      `/v1/search?q=${w}&t=notes`,
      `/v1/search?q=${a.username.slice(0, 4)}&t=users`,
      `/v1/search?q=${a.username.slice(0, 4)}&t=users&suggest=1`,
      "/v1/search?q=qqqzzzx&t=users",
      "/v1/search?q=qqqzzzx&t=users&suggest=1",
    ];
    // A ranked query nothing matches is one trip all the same.
    for (const path of [...reads, `/v1/search?q=${word()}&t=notes`]) expect(await trips(path), path).toBe(1);
    // Nothing to search for: nothing to ask D1.
    expect(await trips("/v1/search?q=&t=notes")).toBe(0);

    expect((await a.get("/v1/logout?all=1")).status).toBeLessThan(400);
    for (const path of [...reads, "/v1/search?q=&t=notes", `/v1/search?q=${w}&t=replies`])
      expect((await a.get(path)).status, path).toBe(401);
  });
});
