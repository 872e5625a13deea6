import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { refusedUnchanged, snapshot } from "../db-snapshot";
import { type TestUser, user, users, visitor } from "../factories";

const post = (u: TestUser, body: Record<string, unknown>) =>
  u.post("/v1/notes", { label: "idea", content: "<p>hello</p>", ...body });
const row = async (sql: string, ...args: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...args)
    .first<Record<string, number>>();

describe("JSON pages read (issue 15)", () => {
  it("answers counts and image lists as objects beside the spec's JSON text, which stays as it was", async () => {
    const [a, b] = await users(2);
    const folder = (await a.post("/v1/folders", { type: "Company", name: "Acme", descr: "", link: "" })).body;
    await post(a, { label: "idea", folders: [folder.id] });
    await post(a, { label: "tip" });
    await b.post(`/v1/follows/${a.id}`);
    const mine = (await a.get("/v1/me")).body;
    expect(mine.stats).toEqual({ following: 0, follower: 1, note: 2, noti: 1, invitation: 0 });
    expect(mine.stats).toEqual(JSON.parse(mine.jstats));
    expect(mine.labels).toEqual({ idea: 1, tip: 1 });
    expect(mine.labels).toEqual(JSON.parse(mine.jslabel));
    expect(mine.types).toEqual({ Company: 1 });
    expect(mine.types).toEqual(JSON.parse(mine.jstype));
    // Someone else's record has no unread counts, parsed or not.
    const seen = (await b.get(`/v1/users/${a.username}`)).body;
    expect(seen.stats).toEqual({ following: 0, follower: 1, note: 2 });
    const f = (await b.get(`/v1/folders/${folder.id}`)).body;
    expect(f.labels).toEqual({ idea: 1 });
    expect(f.labels).toEqual(JSON.parse(f.jslabel));
    const notes = (await b.get(`/v1/notes?uid=${a.id}`)).body.notes;
    expect(notes.map((n: { images: string[]; imgs: string }) => [n.images, n.imgs])).toEqual([
      [[], ""],
      [[], ""],
    ]);
  });
});

describe("POST /v1/notes", () => {
  it("creates a note with sanitised content, plain text, tags, counters and author", async () => {
    const a = await user();
    const res = await post(a, {
      label: " Idea ",
      content:
        '<p onclick="x()">Learning #Edge and #sqlite3 <script>alert(1)</script><a href="javascript:alert(1)">bad</a> <a href="example.com">ok</a></p>',
    });
    expect(res.status).toBe(201);
    const note = (await a.get(`/v1/notes/${a.username}/${res.body.note.id}`)).body;
    expect(note.content).not.toMatch(/script|onclick|javascript/i);
    expect(note.content).toContain('href="http://example.com" rel="nofollow noopener ugc"');
    expect(note.content).toContain('<a href="/tag/edge" class="hashtag">#Edge</a>');
    expect(note.txt).toBe("Learning #Edge and #sqlite3 bad ok");
    expect(note).toMatchObject({ label: "idea", kind: "note", liked: false, renoted: false, likenum: 0 });
    expect(note.user).toMatchObject({ id: a.id, username: a.username, me: true });
    const tags = await env.DB.prepare("select tag from note_tags where note_id = ? order by tag").bind(note.id).all();
    expect(tags.results.map((t) => t.tag)).toEqual(["edge", "sqlite3"]);
    const me = (await a.get("/v1/me")).body;
    expect(JSON.parse(me.jstats).note).toBe(1);
    expect(JSON.parse(me.jslabel)).toEqual({ idea: 1 });
  });

  it("answers the note's own href on create and on edit (issue 15: pages need no /me call)", async () => {
    const a = await user();
    const created = await post(a, {});
    expect(created.body.note).toEqual({ id: expect.any(Number), href: `/${a.username}/note/${created.body.note.id}` });
    const edited = await a.patch("/v1/notes", { id: created.body.note.id, label: "idea", content: "<p>again</p>" });
    expect(edited.status).toBe(200);
    expect(edited.body.note.href).toBe(`/${a.username}/note/${created.body.note.id}`);
  });

  const bad: [string, Record<string, unknown>, string, string][] = [
    ["no label", { label: "" }, "label", "Please select a x-label."],
    ["label missing", { label: undefined }, "label", "Please select a x-label."],
    ["long label", { label: "x".repeat(21) }, "label", "x-label should be less than or equal 20 character long."],
    ["emoji label", { label: "fun 🎉" }, "label", "Cannot contain emoji."],
    ["empty text", { content: "<p> </p>" }, "content", "Please enter your note."],
    [
      "long text",
      { content: `<p>${"a".repeat(2801)}</p>` },
      "content",
      "Note should be less than or equal 2800 character long.",
    ],
    [
      "16 tags",
      { content: `<p>${Array.from({ length: 16 }, (_, i) => `#t${String.fromCharCode(97 + i)}`).join(" ")}</p>` },
      "tags",
      "Number of tags should be less than or equal 15.",
    ],
    [
      "long tag",
      { content: `<p>#a${"b".repeat(50)}</p>` },
      "tags",
      "Tag should be less than or equal 50 character long.",
    ],
    ["digit tag", { content: "<p>#1abc</p>" }, "tags", "First character of a tag should be a letter."],
    ["odd tag", { content: "<p>#ab_c</p>" }, "tags", "Tag should contain only letter or number."],
    [
      "21 folders",
      { folders: Array.from({ length: 21 }, (_, i) => i + 1) },
      "folders",
      "You can only select up to 20 folders.",
    ],
    [
      "11 uploads",
      { uploads: Array.from({ length: 11 }, () => ({ file_size: 10, file_ext: "jpg" })) },
      "uploads",
      "You can only add up to 10 images.",
    ],
    ["bad video", { video: "https://vimeo.com/123" }, "video", "Invalid YouTube link."],
    ["foreign image", { imgs: "/img/u/999999/note/x.jpg" }, "imgs", "Images must be your own uploads."],
  ];
  it.each(bad)("refuses %s with the spec's message and changes nothing", async (_n, patch, field, message) => {
    const a = await user();
    await refusedUnchanged(() => post(a, patch), field, message);
  });

  it("accepts the limits exactly: 2800 characters, 15 tags, a 50-character tag, a 20-character label", async () => {
    const a = await user();
    const tags = Array.from({ length: 15 }, (_, i) => `#tag${String.fromCharCode(97 + i)}`).join(" ");
    for (const body of [
      { content: `<p>${"a".repeat(2800)}</p>` },
      { content: `<p>${tags}</p>` },
      { content: `<p>#a${"b".repeat(49)}</p>` },
      { label: "x".repeat(20) },
    ])
      expect((await post(a, body)).status).toBe(201);
  });

  it("keeps a YouTube video as its 11-character id", async () => {
    const a = await user();
    for (const video of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "youtu.be/dQw4w9WgXcQ",
      "https://youtube.com/shorts/dQw4w9WgXcQ",
    ]) {
      const id = (await post(a, { video })).body.note.id;
      expect((await a.get(`/v1/notes/${id}`)).body.video).toBe("dQw4w9WgXcQ");
    }
  });

  it("refuses visitors", async () => {
    expect((await visitor().post("/v1/notes", { label: "idea", content: "<p>x</p>" })).status).toBe(401);
  });
});

describe("PATCH and DELETE /v1/notes", () => {
  it("edits only the owner's note and moves label counts", async () => {
    const [a, b] = await users(2);
    const id = (await post(a, { content: "<p>#one</p>" })).body.note.id;
    const before = await snapshot();
    expect((await b.patch("/v1/notes", { id, label: "memo", content: "<p>hijack</p>" })).status).toBe(404);
    expect((await b.delete(`/v1/notes/${id}`)).status).toBe(404);
    expect(await snapshot()).toBe(before);
    const res = await a.patch("/v1/notes", { id, label: "memo", content: "<p>edited #two</p>" });
    expect(res.status).toBe(200);
    const note = (await a.get(`/v1/notes/${id}`)).body;
    expect(note).toMatchObject({ label: "memo", txt: "edited #two" });
    expect(JSON.parse((await a.get("/v1/me")).body.jslabel)).toEqual({ memo: 1 });
    const tags = await env.DB.prepare("select tag from note_tags where note_id = ?").bind(id).all();
    expect(tags.results.map((t) => t.tag)).toEqual(["two"]);
  });

  it("deletes the owner's note with its tags, likes and renotes, and recounts", async () => {
    const [a, b] = await users(2);
    const id = (await post(a, { content: "<p>#gone</p>" })).body.note.id;
    await b.post("/v1/renotes", { renote_id: id, content: "" });
    await env.DB.prepare("insert into likes (user_id, kind, target_id) values (?, 'note', ?)").bind(b.id, id).run();
    expect((await a.delete(`/v1/notes/${id}`)).status).toBe(200);
    // Deleted, and said so (410), rather than never there.
    expect((await a.get(`/v1/notes/${id}`)).status).toBe(410);
    expect(await row("select count(*) n from note_tags where note_id = ?", id)).toEqual({ n: 0 });
    expect(await row("select count(*) n from likes where kind = 'note' and target_id = ?", id)).toEqual({ n: 0 });
    expect(await row("select count(*) n from notes where renote_id = ?", id)).toEqual({ n: 0 });
    const stats = JSON.parse((await a.get("/v1/me")).body.jstats);
    expect(stats.note).toBe(0);
    expect(JSON.parse((await a.get("/v1/me")).body.jslabel)).toEqual({});
    expect((await a.delete(`/v1/notes/${id}`)).status).toBe(404);
  });

  it("answers 400/404 for ids that are not positive numbers or do not exist", async () => {
    const a = await user();
    for (const id of ["0", "-1", "abc", "1.5"]) expect((await a.get(`/v1/notes/${a.username}/${id}`)).status).toBe(400);
    expect((await a.get(`/v1/notes/${a.username}/99999999`)).status).toBe(404);
  });
});

describe("lists", () => {
  it("discover pages by keyset without duplicates or gaps while notes are added between pages", async () => {
    const a = await user();
    const created: number[] = [];
    for (let i = 0; i < 45; i++) created.push((await post(a, { content: `<p>n${i}</p>` })).body.note.id);
    const seen: number[] = [];
    let res = (await visitor().get("/v1/discover?page=1")).body;
    expect(res.paginator).toEqual({ page: 1, is_end: false });
    seen.push(...res.notes.map((n: { id: number }) => n.id));
    // New notes arrive at the top while the reader scrolls; the cursor keeps the reader's place.
    for (let i = 0; i < 5; i++) await post(a, { content: `<p>late${i}</p>` });
    for (let page = 2; !res.paginator.is_end; page++) {
      res = (await visitor().get(`/v1/discover?page=${page}&cursor=${res.cursor}`)).body;
      expect(res.paginator.page).toBe(page);
      seen.push(...res.notes.map((n: { id: number }) => n.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    const mine = seen.filter((id) => created.includes(id));
    expect(mine).toEqual([...created].reverse());
    expect(res.cursor).toBeNull();
  });

  it("filters a user's notes by x-label, and serves tags and labels", async () => {
    const a = await user();
    await post(a, { label: "tip", content: "<p>#zeta one</p>" });
    await post(a, { label: "idea", content: "<p>#zeta two</p>" });
    const byLabel = (await visitor().get(`/v1/notes?uid=${a.id}&xlabel=tip&page=1`)).body;
    expect(byLabel.notes.map((n: { txt: string }) => n.txt)).toEqual(["#zeta one"]);
    const all = (await visitor().get(`/v1/notes?uid=${a.id}&page=1`)).body;
    expect(all.notes).toHaveLength(2);
    const tag = (await visitor().get("/v1/tags/ZETA?page=1")).body;
    expect(tag.notes.filter((n: { user: { id: number } }) => n.user.id === a.id)).toHaveLength(2);
    const label = (await visitor().get("/v1/labels/tip?page=1")).body;
    expect(label.notes.some((n: { txt: string }) => n.txt === "#zeta one")).toBe(true);
    expect((await visitor().get("/v1/notes?page=1")).status).toBe(400);
    // By the name in a profile's address (any case) instead of the id: the same lists.
    const byName = (await visitor().get(`/v1/notes?username=${a.username.toUpperCase()}&xlabel=tip&page=1`)).body;
    expect(byName).toEqual(byLabel);
    expect((await visitor().get(`/v1/notes?username=${a.username}&page=1`)).body).toEqual(all);
    // A name nobody holds has no notes; a name no account could have is a 400, never a 500.
    expect((await visitor().get("/v1/notes?username=nobody-has-this&page=1")).body.notes).toEqual([]);
    const long = await visitor().get(`/v1/notes?username=${"x".repeat(101)}&page=1`);
    expect(long.status).toBe(400);
    expect((await visitor().get("/v1/notes?username=&page=1")).body.fields).toEqual({ uid: "uid is required" });
  });

  it("following feed: signed-in only, notes of followed users and self", async () => {
    const [a, b, c] = await users(3);
    await env.DB.prepare("insert into follows (follower_id, followee_id) values (?, ?)").bind(a.id, b.id).run();
    const nb = (await post(b, { content: "<p>from b</p>" })).body.note.id;
    const nc = (await post(c, { content: "<p>from c</p>" })).body.note.id;
    const na = (await post(a, { content: "<p>from a</p>" })).body.note.id;
    const feed = (await a.get("/v1/feeds?page=1")).body.notes.map((n: { id: number }) => n.id);
    expect(feed).toContain(nb);
    expect(feed).toContain(na);
    expect(feed).not.toContain(nc);
    expect((await visitor().get("/v1/feeds?page=1")).status).toBe(401);
  });
});

describe("renotes and quotes", () => {
  it("renotes once per user, quotes embed the original, renum stays exact", async () => {
    const [a, b, c] = await users(3);
    const id = (await post(a, {})).body.note.id;
    await b.post("/v1/renotes", { renote_id: id, content: "" });
    await b.post("/v1/renotes", { renote_id: id, content: "" });
    const q = await c.post("/v1/renotes", { renote_id: id, content: "<p>so true</p>" });
    expect(q.status).toBe(201);
    expect((await a.get(`/v1/notes/${id}`)).body.renum).toBe(2);
    expect((await b.get(`/v1/notes/${id}`)).body.renoted).toBe(true);
    const quote = (await c.get(`/v1/notes/${q.body.id}`)).body;
    expect(quote).toMatchObject({ kind: "quote", txt: "so true" });
    expect(quote.renote).toMatchObject({ id, user: { id: a.id } });
    const bNotes = (await visitor().get(`/v1/notes?uid=${b.id}&page=1`)).body.notes;
    expect(bNotes[0]).toMatchObject({ kind: "renote", user: { id: b.id }, renote: { id } });
    expect((await b.delete(`/v1/renotes/${id}`)).body).toMatchObject({ renoted: false, renum: 1 });
    expect((await c.post("/v1/renotes", { renote_id: id, content: " ", quote: true })).body.fields.content).toBe(
      "please enter your note.",
    );
    expect((await c.post("/v1/renotes", { renote_id: 99999999, content: "" })).status).toBe(404);
    expect((await visitor().post("/v1/renotes", { renote_id: id })).status).toBe(401);
  });

  it("a list shows each quote's original whole: author, folders and the viewer's own like and renote", async () => {
    const [a, b, c] = await users(3);
    const folder = (await a.post("/v1/folders", { type: "Skill", name: `Orig ${Date.now()}` })).body;
    const id = (await post(a, { folders: [folder.id] })).body.note.id;
    await b.post(`/v1/likes/${id}?t=note`);
    await b.post("/v1/renotes", { renote_id: id, content: "" });
    const quoteId = (await c.post("/v1/renotes", { renote_id: id, content: "<p>quoted</p>" })).body.id;
    const seen = async (viewer: TestUser | ReturnType<typeof visitor>) =>
      (await viewer.get(`/v1/notes?uid=${c.id}&page=1`)).body.notes.find((n: { id: number }) => n.id === quoteId);
    const original = {
      id,
      kind: "note",
      user: { id: a.id, username: a.username },
      folders: [{ id: folder.id, name: folder.name, slug: folder.slug }],
      renote: null,
      likenum: 1,
      renum: 2,
    };
    expect((await seen(b)).renote).toMatchObject({ ...original, liked: true, renoted: true, user: { me: false } });
    expect((await seen(a)).renote).toMatchObject({ ...original, liked: false, renoted: false, user: { me: true } });
    const forVisitor = (await seen(visitor())).renote;
    expect(forVisitor).toMatchObject({ ...original, liked: false, renoted: false });
    expect(typeof forVisitor.created_at).toBe("number");
    expect(forVisitor.noted_at).toBe(forVisitor.created_at);
  });
});
