// The D1 round trips of the writes that answer the author's username (a note's and a folder's
// href): the username comes from the write's own statements (a subquery in the insert's or
// update's RETURNING, or the last statement of its batch), never from a trip of its own (the
// session names only the account). Server-Timing says how many trips a request took.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { user } from "../factories";
import { Client, type Res } from "../http";
import { appToken } from "../mastodon";

const trips = (res: Res) => tripsOf(res.headers.get("server-timing"));

describe("writes that answer the author's username", () => {
  it("name it from their own statements, and read the facts in the same one trip: a note and a folder, created and edited", async () => {
    const a = await user();
    const created = await a.post("/v1/notes", { label: "idea", content: "<p>plain</p>" });
    expect(created.status).toBe(201);
    const id = created.body.note.id;
    expect(created.body.note.href).toBe(`/${a.username}/note/${id}`);
    // The insert, then everything that depends on it, naming the new note inside the same batch.
    expect(trips(created)).toBe(1);

    const edited = await a.patch("/v1/notes", { id, label: "idea", content: "<p>edited</p>" });
    expect(edited.body.note.href).toBe(`/${a.username}/note/${id}`);
    // One batch: its first statement reads the note (the caller's?), every write is guarded by the same.
    expect(trips(edited)).toBe(1);

    const folder = await a.post("/v1/folders", { type: "Company", name: "Acme Inc", descr: "", link: "" });
    expect(folder.status).toBe(201);
    expect(folder.body.href).toBe(`/${a.username}/x/acme-inc`);
    // One batch: the facts (a duplicate?), then the insert with its slug chosen in SQL.
    expect(trips(folder)).toBe(1);

    const renamed = { type: "Company", name: "Acme Two", descr: "", link: "" };
    const folderEdit = await a.patch(`/v1/folders/${folder.body.id}`, renamed);
    expect(folderEdit.body.href).toBe(`/${a.username}/x/acme-two`);
    // One batch: the facts (the caller's? a duplicate?), then the guarded update.
    expect(trips(folderEdit)).toBe(1);
  });
});

describe("a plain renote and its undo", () => {
  it("take one trip each: the original, its owner and a block are read first in the same batch; an unknown note is a 404", async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    const id = (await a.post("/v1/notes", { label: "idea", content: "<p>shared</p>" })).body.note.id;
    const renoted = await b.post("/v1/renotes", { renote_id: id, content: "" });
    expect(renoted.body).toMatchObject({ id, renoted: true, renum: 1 });
    expect(trips(renoted)).toBe(1);
    // A renote of b's renote renotes the original.
    const theirs = await env.DB.prepare("select id from notes where user_id = ? and kind = 1 and renote_id = ?")
      .bind(b.id, id)
      .first<{ id: number }>();
    const again = await c.post("/v1/renotes", { renote_id: theirs?.id, content: "" });
    expect(again.body).toMatchObject({ id, renoted: true, renum: 2 });
    expect(trips(again)).toBe(1);
    await c.delete(`/v1/renotes/${id}`);
    expect((await c.post("/v1/renotes", { renote_id: 999999999, content: "" })).status).toBe(404);
    const renotices = async () =>
      (await a.get("/v1/notifications?page=1")).body.notis.filter((n: { action: string }) => n.action === "renote");
    expect(await renotices()).toHaveLength(1);
    const undone = await b.delete(`/v1/renotes/${id}`);
    expect(undone.body).toMatchObject({ id, renoted: false, renum: 0 });
    expect(trips(undone)).toBe(1);
    expect(await renotices()).toEqual([]);
    expect((await b.delete("/v1/renotes/999999999")).status).toBe(404);
  });
});

/** Rows that a refused note write could touch, to show it changed nothing. */
const rowCounts = async () => {
  const one = async (q: string) => (await env.DB.prepare(q).first<{ n: number }>())?.n ?? 0;
  return {
    notes: await one("select count(*) n from notes"),
    tags: await one("select count(*) n from note_tags"),
    filed: await one("select count(*) n from folder_notes"),
    notices: await one("select count(*) n from notifications"),
    counters: await one("select coalesce(sum(note_num), 0) + coalesce(sum(noti_num), 0) n from users"),
    renums: await one("select coalesce(sum(renum), 0) n from notes"),
    labels: await one("select coalesce(sum(n), 0) n from user_labels"),
  };
};

describe("a note filed in folders, a quote, and their refusals", () => {
  it("take one trip each; a refused one answers as before and changes nothing", async () => {
    const [a, b] = [await user(), await user()];
    await b.post(`/v1/follows/${a.id}`);
    const mine = (await a.post("/v1/folders", { type: "Project", name: "Kiln", descr: "", link: "" })).body;
    const theirs = (await b.post("/v1/folders", { type: "Project", name: "Loom", descr: "", link: "" })).body;

    const filed = await a.post("/v1/notes", {
      label: "pots",
      content: "<p>glaze #stoneware</p>",
      folders: [mine.id],
    });
    expect(filed.status).toBe(201);
    expect(trips(filed)).toBe(1);
    const folder = (await a.get(`/v1/folders/${mine.id}`)).body;
    expect(folder.notenum ?? folder.folder?.notenum).toBe(1);
    expect((await b.get("/v1/notifications?page=1")).body.notis.map((n: { action: string }) => n.action)).toContain(
      "note",
    );

    const before = await rowCounts();
    const refused = await a.post("/v1/notes", {
      label: "pots",
      content: "<p>not yours #stoneware</p>",
      folders: [mine.id, theirs.id],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("You can only file notes into your own x-folders.");
    expect(trips(refused)).toBe(1);
    expect(await rowCounts()).toEqual(before);

    const noteId = filed.body.note.id;
    const quoted = await b.post("/v1/renotes", { renote_id: noteId, content: "<p>look at this</p>" });
    expect(quoted.status).toBe(201);
    expect(quoted.body).toMatchObject({ renoted: false, renum: 1 });
    expect(quoted.body.id).not.toBe(noteId);
    expect(trips(quoted)).toBe(1);
    const quote = await env.DB.prepare("select user_id, kind, renote_id from notes where id = ?")
      .bind(quoted.body.id)
      .first();
    expect(quote).toEqual({ user_id: b.id, kind: 2, renote_id: noteId });
    expect((await a.get("/v1/notifications?page=1")).body.notis.map((n: { action: string }) => n.action)).toContain(
      "quote",
    );

    // Unknown: a 404, for a renote and a quote. Blocked: a 403 either way. Nothing written.
    const after = await rowCounts();
    for (const content of ["", "<p>quoting</p>"]) {
      const unknown = await b.post("/v1/renotes", { renote_id: 999999999, content });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe("Note not found");
      expect(trips(unknown)).toBe(1);
    }
    await a.post(`/v1/blocks/${b.id}`);
    const blockedCounts = await rowCounts();
    for (const content of ["", "<p>quoting</p>"]) {
      const blocked = await b.post("/v1/renotes", { renote_id: noteId, content });
      expect(blocked.status).toBe(403);
      expect(blocked.body.message).toMatch(/has blocked you/);
      expect(trips(blocked)).toBe(1);
    }
    expect(await rowCounts()).toEqual(blockedCounts);
    expect(after.notes).toBe(blockedCounts.notes);
  });
});

describe("POST /api/v1/statuses", () => {
  it("is one trip: the note, then the status read back at the end of the same batch; a quote too, and its refusals", async () => {
    const [a, b] = [await user(), await user()];
    const app = new Client();
    app.token = (await appToken(a, "read write follow")).token;
    const posted = await app.post("/api/v1/statuses", { status: "one trip #howto" });
    expect(posted.status).toBe(200);
    expect(trips(posted)).toBe(1);
    const id = Number(posted.body.id);
    expect(posted.body).toMatchObject({
      account: { id: String(a.id), username: a.username, statuses_count: 1 },
      content: '<p>one trip <a href="http://notex.test/tag/howto" class="hashtag">#howto</a></p>',
      favourited: false,
      reblogged: false,
      bookmarked: false,
      reblogs_count: 0,
      favourites_count: 0,
      replies_count: 0,
    });
    // The same status as a read of it answers.
    const read = await app.get(`/api/v1/statuses/${posted.body.id}`);
    expect(posted.body).toEqual(read.body);

    // A quote of b's note that a has bookmarked: the original's account and a's bookmark come back too.
    const theirs = (await b.post("/v1/notes", { label: "idea", content: "<p>theirs</p>" })).body.note.id;
    await a.post(`/v1/bookmarks/${theirs}?t=note`);
    const quoted = await app.post("/api/v1/statuses", { status: "quoting", quoted_status_id: String(theirs) });
    expect(quoted.status).toBe(200);
    expect(trips(quoted)).toBe(1);
    expect(quoted.body).toEqual((await app.get(`/api/v1/statuses/${quoted.body.id}`)).body);
    expect(quoted.body.quote.quoted_status).toMatchObject({
      id: String(theirs),
      account: { id: String(b.id) },
      bookmarked: true,
      reblogs_count: 1,
    });

    // With an Idempotency-Key: the key is read first (a second trip), remembered in the batch.
    const key = { "idempotency-key": "trip-key" };
    const once = await app.post("/api/v1/statuses", { status: "keyed" }, key);
    expect(trips(once)).toBe(2);
    const twice = await app.post("/api/v1/statuses", { status: "keyed" }, key);
    expect(twice.body.id).toBe(once.body.id);

    // A reply, to a note and to a reply: one trip, the status as a read of it answers.
    const reply = await app.post("/api/v1/statuses", { status: "replying", in_reply_to_id: String(theirs) });
    expect(reply.status).toBe(200);
    expect(trips(reply)).toBe(1);
    expect(reply.body).toEqual((await app.get(`/api/v1/statuses/${reply.body.id}`)).body);
    expect(reply.body).toMatchObject({ in_reply_to_id: String(theirs), in_reply_to_account_id: String(b.id) });
    const nested = await app.post("/api/v1/statuses", { status: "deeper", in_reply_to_id: reply.body.id });
    expect(trips(nested)).toBe(1);
    expect(nested.body).toMatchObject({ in_reply_to_id: reply.body.id, in_reply_to_account_id: String(a.id) });
    expect(nested.body).toEqual((await app.get(`/api/v1/statuses/${nested.body.id}`)).body);

    // Refused quotes and replies: unknown (404) and across a block (403) change nothing, the key included.
    await b.post(`/v1/blocks/${a.id}`);
    const before = await rowCounts();
    const keys = async () =>
      (
        await env.DB.prepare("select count(*) n from masto_idempotency where user_id = ?")
          .bind(a.id)
          .first<{ n: number }>()
      )?.n;
    const keysBefore = await keys();
    const unknown = await app.post(
      "/api/v1/statuses",
      { status: "q", quoted_status_id: "1999999998" },
      { "idempotency-key": "k2" },
    );
    expect(unknown.status).toBe(404);
    const blocked = await app.post(
      "/api/v1/statuses",
      { status: "q", quoted_status_id: String(theirs) },
      { "idempotency-key": "k3" },
    );
    expect(blocked.status).toBe(403);
    const blockedReply = await app.post(
      "/api/v1/statuses",
      { status: "replying", in_reply_to_id: String(theirs) },
      { "idempotency-key": "k4" },
    );
    expect(blockedReply.status).toBe(403);
    expect(await rowCounts()).toEqual(before);
    expect(await keys()).toBe(keysBefore);
    expect(id).toBeGreaterThan(0);
  });
});

/** Rows a refused folder save could touch. */
const folderCounts = async (uid: number) =>
  env.DB.prepare(
    "select (select count(*) from folders where user_id = ?1) folders, (select group_concat(slug || ':' || name, ',') from folders where user_id = ?1) slugs, (select coalesce(sum(n), 0) from user_types where user_id = ?1) types",
  )
    .bind(uid)
    .first();

describe("note and folder edits, and folder saves, refused", () => {
  it("answer as before in one trip and change nothing; slugs are chosen as before", async () => {
    const [a, b] = [await user(), await user()];
    const id = (await a.post("/v1/notes", { label: "idea", content: "<p>mine #one</p>" })).body.note.id;
    const kiln = (await a.post("/v1/folders", { type: "Project", name: "Kiln", descr: "", link: "" })).body;
    const loom = (await b.post("/v1/folders", { type: "Project", name: "Loom", descr: "", link: "" })).body;

    // Edits: unknown note and someone else's are 404 "Note not found"; a folder not yours is a 422.
    const before = await rowCounts();
    const versions = async () =>
      (await env.DB.prepare("select count(*) n from note_versions").first<{ n: number }>())?.n;
    const versionsBefore = await versions();
    for (const [who, target] of [
      [a, 999999999],
      [b, id],
    ] as const) {
      const res = await who.patch("/v1/notes", { id: target, label: "idea", content: "<p>taken over #two</p>" });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Note not found");
      expect(trips(res)).toBe(1);
    }
    const theirs = await a.patch("/v1/notes", { id, label: "pots", content: "<p>moved #two</p>", folders: [loom.id] });
    expect(theirs.status).toBe(422);
    expect(theirs.body.message).toBe("You can only file notes into your own x-folders.");
    expect(trips(theirs)).toBe(1);
    expect(await rowCounts()).toEqual(before);
    expect(await versions()).toBe(versionsBefore);
    expect((await a.get(`/v1/notes/${id}`)).body).toMatchObject({ label: "idea", edited_at: null });

    // An edit that files the note and changes its label, in one trip: counts follow.
    const filed = await a.patch("/v1/notes", { id, label: "pots", content: "<p>moved #two</p>", folders: [kiln.id] });
    expect(filed.status).toBe(200);
    expect(trips(filed)).toBe(1);
    const folder = await env.DB.prepare("select notenum, noted_at from folders where id = ?").bind(kiln.id).first();
    expect(folder).toMatchObject({ notenum: 1 });
    expect(await versions()).toBe((versionsBefore ?? 0) + 1);

    // Folders: a duplicate (any case) is today's 409; someone else's folder is a 404; nothing changes.
    const folders = await folderCounts(a.id);
    const dup = await a.post("/v1/folders", { type: "project", name: "KILN", descr: "", link: "" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("You already have this x-folder");
    expect(trips(dup)).toBe(1);
    const other = (await a.post("/v1/folders", { type: "Company", name: "Other", descr: "", link: "" })).body;
    const folders2 = await folderCounts(a.id);
    const dupEdit = await a.patch(`/v1/folders/${other.id}`, { type: "Project", name: "kiln", descr: "", link: "" });
    expect(dupEdit.status).toBe(409);
    expect(await folderCounts(a.id)).toEqual(folders2);
    const notMine = await b.patch(`/v1/folders/${kiln.id}`, { type: "Project", name: "Mine now", descr: "", link: "" });
    expect(notMine.status).toBe(404);
    expect(notMine.body.message).toBe("Folder not found");
    expect(trips(notMine)).toBe(1);
    expect(await folderCounts(a.id)).toEqual(folders2);
    expect(folders2).toMatchObject({ folders: (folders as { folders: number }).folders + 1 });

    // Slugs: the name's, then -2, -3… the first free; an edit keeps its slug while the name stays.
    const slugOf = async (name: string, type = "Skill") =>
      (await a.post("/v1/folders", { type, name, descr: "", link: "" })).body.href.split("/x/")[1];
    expect(await slugOf("Kiln", "Skill")).toBe("kiln-2");
    expect(await slugOf("kiln!", "Company")).toBe("kiln-3");
    const kept = await a.patch(`/v1/folders/${kiln.id}`, { type: "Project", name: "Kiln", descr: "now", link: "" });
    expect(kept.body.href).toBe(`/${a.username}/x/kiln`);
    const renamed = await a.patch(`/v1/folders/${kiln.id}`, { type: "Project", name: "Kiln!", descr: "", link: "" });
    expect(renamed.body.href).toBe(`/${a.username}/x/kiln`);
  });
});

describe("a reply", () => {
  it("is one trip, to a note or a reply, repeated or not; a refused one answers as before and changes nothing", async () => {
    const [a, b] = [await user(), await user()];
    const noteId = (await a.post("/v1/notes", { label: "idea", content: "<p>thread</p>" })).body.note.id;
    const first = await b.post("/v1/replies", { parent: -noteId, content: `<p>hello @${a.username}</p>` });
    expect(first.status).toBe(201);
    // One trip more for the @name: who it names is read before the text is stored.
    expect(trips(first)).toBe(2);
    const plain = await b.post("/v1/replies", { parent: -noteId, content: "<p>plain</p>" });
    expect(trips(plain)).toBe(1);
    expect(plain.body).toMatchObject({ parent: -noteId, note_id: noteId, uid: b.id, repnum: 0 });
    const nested = await a.post("/v1/replies", { parent: plain.body.id, content: "<p>nested</p>" });
    expect(trips(nested)).toBe(1);
    expect(nested.body).toMatchObject({ parent: plain.body.id, note_id: noteId });
    const again = await a.post("/v1/replies", { parent: plain.body.id, content: "<p>nested</p>" });
    expect(again.body.id).toBe(nested.body.id);
    expect(trips(again)).toBe(1);
    const notices = (await b.get("/v1/notifications?page=1")).body.notis.filter(
      (n: { action: string }) => n.action === "reply",
    );
    expect(notices).toHaveLength(1);
    expect((await a.get(`/v1/notes/${noteId}`)).body.repnum).toBe(2);

    const before = await rowCounts();
    const replies = async () => (await env.DB.prepare("select count(*) n from replies").first<{ n: number }>())?.n;
    const repliesBefore = await replies();
    const unknown = await b.post("/v1/replies", { parent: -999999999, content: "<p>nobody</p>" });
    expect(unknown.status).toBe(404);
    expect(trips(unknown)).toBe(1);
    await a.post(`/v1/blocks/${b.id}`);
    const blockedCounts = await rowCounts();
    for (const parent of [-noteId, nested.body.id]) {
      const blocked = await b.post("/v1/replies", { parent, content: "<p>blocked</p>" });
      expect(blocked.status).toBe(403);
      expect(blocked.body.message).toMatch(/has blocked you/);
      expect(trips(blocked)).toBe(1);
    }
    expect(await rowCounts()).toEqual(blockedCounts);
    expect(before.notes).toBe(blockedCounts.notes);
    expect(await replies()).toBe(repliesBefore);
  });
});

describe("a note's delete", () => {
  it("is one trip, moving its folders', label's and original's counts; someone else's or an unknown note is a 404 that changes nothing", async () => {
    const [a, b] = [await user(), await user()];
    const kiln = (await a.post("/v1/folders", { type: "Project", name: "Kiln", descr: "", link: "" })).body;
    const older = (await a.post("/v1/notes", { label: "pots", content: "<p>older</p>", folders: [kiln.id] })).body.note
      .id;
    const id = (await a.post("/v1/notes", { label: "pots", content: "<p>newer #glaze</p>", folders: [kiln.id] })).body
      .note.id;
    const quote = await b.post("/v1/renotes", { renote_id: id, content: "<p>quoting</p>" });
    const renote = await b.post("/v1/renotes", { renote_id: older, content: "" });
    expect(renote.body.renum).toBe(1);

    const before = await rowCounts();
    for (const [who, target] of [
      [b, id],
      [a, 999999999],
    ] as const) {
      const res = await who.delete(`/v1/notes/${target}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Note not found");
      expect(trips(res)).toBe(1);
    }
    expect(await rowCounts()).toEqual(before);

    const gone = await a.delete(`/v1/notes/${id}`);
    expect(gone.status).toBe(200);
    expect(trips(gone)).toBe(1);
    const folder = await env.DB.prepare("select notenum, noted_at from folders where id = ?").bind(kiln.id).first();
    const olderAt = await env.DB.prepare("select created_at from notes where id = ?")
      .bind(older)
      .first<{ created_at: number }>();
    expect(folder).toEqual({ notenum: 1, noted_at: olderAt?.created_at });
    expect((await a.get("/v1/me")).body.stats.note).toBe(1);
    expect((await a.get(`/v1/notes/${id}`)).status).toBe(410);
    // b's quote of it stays (its original gone); b's quote going moves nothing of a's.
    expect((await b.delete(`/v1/notes/${quote.body.id}`)).status).toBe(200);
    // A plain renote's original loses its count when the renote's note goes with its author's undo.
    expect((await b.delete(`/v1/renotes/${older}`)).body.renum).toBe(0);
  });
});
