// A Mastodon app's day on NoteX, through masto.js: post, follow, favourite, reblog, bookmark, reply,
// timelines across pages, notifications, search, edit, delete; and what one token never reaches.
import { describe, expect, it } from "vitest";
import { user } from "../factories";
import { Client } from "../http";
import { PNG } from "../images";
import { appToken } from "../mastodon";

async function person() {
  const p = await user();
  const { client, token } = await appToken(p, "read write follow");
  return { p, m: client, token };
}

describe("Mastodon statuses through masto.js", () => {
  it("posts, follows, favourites, reblogs, bookmarks, replies, edits and deletes", async () => {
    const alice = await person();
    const bob = await person();
    const s = await alice.m.v1.statuses.create({ status: "Hello from an app #idea and #Edge" });
    expect(s.account.username).toBe(alice.p.username);
    expect(s.content).toContain("Hello from an app");
    // The preset label named as a hashtag is the note's x-label, and shows first among the tags.
    expect(s.tags.map((t) => t.name)).toEqual(["idea", "edge"]);
    const web = await alice.p.get(`/v1/notes/${Number(s.id)}`);
    expect(web.body.label).toBe("idea");

    const plain = await alice.m.v1.statuses.create({ status: "No label given" });
    expect((await alice.p.get(`/v1/notes/${Number(plain.id)}`)).body.label).toBe("note");

    const rel = await bob.m.v1.accounts.$select(String(alice.p.id)).follow();
    expect(rel.following).toBe(true);
    const [relAgain] = await bob.m.v1.accounts.relationships.fetch({ id: [String(alice.p.id)] });
    expect(relAgain.following).toBe(true);

    const home = await bob.m.v1.timelines.home.list();
    expect(home.map((x) => x.id)).toContain(s.id);

    const fav = await bob.m.v1.statuses.$select(s.id).favourite();
    expect(fav.favourited).toBe(true);
    expect(fav.favouritesCount).toBe(1);
    const boosted = await bob.m.v1.statuses.$select(s.id).reblog();
    expect(boosted.reblog?.id).toBe(s.id);
    expect(boosted.account.username).toBe(bob.p.username);
    const marked = await bob.m.v1.statuses.$select(s.id).bookmark();
    expect(marked.bookmarked).toBe(true);
    const bookmarks = await bob.m.v1.bookmarks.list();
    expect(bookmarks.map((x) => x.id)).toEqual([s.id]);
    const favs = await bob.m.v1.favourites.list();
    expect(favs.map((x) => x.id)).toEqual([s.id]);
    expect((await alice.m.v1.statuses.$select(s.id).favouritedBy.list()).map((a) => a.username)).toEqual([
      bob.p.username,
    ]);
    expect((await alice.m.v1.statuses.$select(s.id).rebloggedBy.list()).map((a) => a.username)).toEqual([
      bob.p.username,
    ]);

    const reply = await bob.m.v1.statuses.create({ status: "A reply", inReplyToId: s.id });
    expect(reply.inReplyToId).toBe(s.id);
    expect(reply.inReplyToAccountId).toBe(String(alice.p.id));
    const nested = await alice.m.v1.statuses.create({ status: "Thanks!", inReplyToId: reply.id });
    const ctx = await alice.m.v1.statuses.$select(reply.id).context.fetch();
    expect(ctx.ancestors.map((x) => x.id)).toEqual([s.id]);
    expect(ctx.descendants.map((x) => x.id)).toEqual([nested.id]);
    const top = await alice.m.v1.statuses.$select(s.id).context.fetch();
    expect(top.descendants.map((x) => x.id)).toEqual([reply.id, nested.id]);

    const notes = await alice.m.v1.notifications.list();
    const types = notes.map((n) => n.type);
    expect(types).toEqual(expect.arrayContaining(["follow", "favourite", "reblog", "mention"]));
    const onlyFollows = await alice.m.v1.notifications.list({ types: ["follow"] });
    expect(onlyFollows.map((n) => n.type)).toEqual(["follow"]);
    const noFollows = await alice.m.v1.notifications.list({ excludeTypes: ["follow"] });
    expect(noFollows.map((n) => n.type)).not.toContain("follow");
    const one = await alice.m.v1.notifications.$select(notes[0].id).fetch();
    expect(one.id).toBe(notes[0].id);

    // Markers: reading up to the newest in the app clears the web's badge.
    expect((await alice.p.get("/v1/me")).body.stats.noti).toBeGreaterThan(0);
    await alice.m.v1.markers.create({ notifications: { lastReadId: notes[0].id } });
    expect((await alice.p.get("/v1/me")).body.stats.noti).toBe(0);
    const markers = await alice.m.v1.markers.fetch({ timeline: ["notifications"] });
    expect(Number(markers.notifications?.lastReadId)).toBeGreaterThanOrEqual(Number(notes[0].id));

    const edited = await alice.m.v1.statuses.$select(s.id).update({ status: "Hello, edited #idea" });
    expect(edited.content).toContain("edited");
    expect(edited.editedAt).toBeTruthy();
    const history = await alice.m.v1.statuses.$select(s.id).history.list();
    expect(history).toHaveLength(2);
    expect(history[0].content).toContain("Hello from an app");
    const source = await alice.m.v1.statuses.$select(s.id).source.fetch();
    expect(source.text).toBe("Hello, edited #idea");
    // Someone else's status is not theirs to edit or delete.
    await expect(bob.m.v1.statuses.$select(s.id).update({ status: "mine now" })).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(bob.m.v1.statuses.$select(s.id).remove()).rejects.toMatchObject({ statusCode: 404 });

    const unfav = await bob.m.v1.statuses.$select(s.id).unfavourite();
    expect(unfav.favourited).toBe(false);
    const unboost = await bob.m.v1.statuses.$select(s.id).unreblog();
    expect(unboost.reblogged).toBe(false);
    expect((await bob.m.v1.statuses.$select(s.id).unbookmark()).bookmarked).toBe(false);

    const gone = await alice.m.v1.statuses.$select(s.id).remove();
    expect(gone.id).toBe(s.id);
    await expect(alice.m.v1.statuses.$select(s.id).fetch()).rejects.toMatchObject({ statusCode: 404 });
    expect((await bob.m.v1.accounts.$select(String(alice.p.id)).unfollow()).following).toBe(false);
  });

  it("pages the public, tag and account timelines with Link headers, newer with min_id", async () => {
    const writer = await person();
    const tag = `pg${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await writer.m.v1.statuses.create({ status: `Paging ${i} #${tag}` })).id);
    const seen: string[] = [];
    for await (const page of writer.m.v1.timelines.tag.$select(tag).list({ limit: 20 })) {
      seen.push(...page.map((x) => x.id));
      if (seen.length > 60) break;
    }
    expect(seen).toEqual([...ids].reverse());
    const byAccount: string[] = [];
    for await (const page of writer.m.v1.accounts.$select(String(writer.p.id)).statuses.list())
      byAccount.push(...page.map((x) => x.id));
    expect(byAccount).toEqual([...ids].reverse());
    const pub = await writer.m.v1.timelines.public.list({ local: true });
    expect(pub[0].id).toBe(ids[24]);
    const newer = await writer.m.v1.timelines.tag.$select(tag).list({ minId: ids[22] });
    expect(newer.map((x) => x.id)).toEqual([ids[24], ids[23]]);
    const older = await writer.m.v1.timelines.tag.$select(tag).list({ maxId: ids[2] });
    expect(older.map((x) => x.id)).toEqual([ids[1], ids[0]]);
    expect(await writer.m.v1.timelines.public.list({ remote: true })).toEqual([]);
    const found = await writer.m.v2.search.list({ q: "Paging", type: "statuses" });
    expect(found.statuses.length).toBeGreaterThan(0);
    const people = await writer.m.v2.search.list({ q: writer.p.username, type: "accounts" });
    expect(people.accounts.map((a) => a.username)).toContain(writer.p.username);
    const looked = await writer.m.v1.accounts.lookup({ acct: writer.p.username });
    expect(looked.id).toBe(String(writer.p.id));
  });

  it("search pages by offset: a window past a page of 20 is full while results remain", async () => {
    const writer = await person();
    const word = `sr${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await writer.m.v1.statuses.create({ status: `Found ${word} ${i}` })).id);
    const at = async (offset: number) =>
      (await writer.m.v2.search.list({ q: word, type: "statuses", offset, limit: 20 })).statuses.map((x) => x.id);
    const first = await at(0);
    const crossing = await at(5);
    const last = await at(20);
    expect(first).toHaveLength(20);
    expect(crossing).toHaveLength(20);
    expect(crossing).toEqual([...first.slice(5), ...last]);
    expect(new Set([...first, ...last])).toEqual(new Set(ids));
    expect(await at(25)).toEqual([]);
  });

  it("an Idempotency-Key posts once; unsupported fields are refused with words, changing nothing", async () => {
    const a = await person();
    const c = new Client();
    c.token = a.token;
    const key = { "idempotency-key": "abc-123" };
    const first = await c.post("/api/v1/statuses", { status: "Once only" }, key);
    const second = await c.post("/api/v1/statuses", { status: "Once only" }, key);
    expect(first.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const before = (await a.p.get("/v1/me")).body.stats.note;
    for (const bad of [
      { status: "cw", spoiler_text: "spoilers" },
      { status: "dm", visibility: "direct" },
      { status: "poll", poll: { options: ["a", "b"], expires_in: 60 } },
      { status: "" },
      { status: "x".repeat(2801) },
      { status: 5 },
      { status: "reply", in_reply_to_id: "999999999" },
      { status: "reply", in_reply_to_id: "not-an-id" },
    ]) {
      const res = await c.post("/api/v1/statuses", bad);
      expect(res.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof res.body.error).toBe("string");
    }
    expect((await a.p.get("/v1/me")).body.stats.note).toBe(before);
    const form = await c.post("/api/v1/statuses", "status=From+a+form", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(200);
    expect(form.body.content).toContain("From a form");
    for (const path of [
      "/api/v1/statuses/abc",
      "/api/v1/statuses/0",
      "/api/v1/accounts/abc",
      "/api/v1/accounts/99999999",
    ])
      expect((await c.get(path)).status).toBe(404);
  });

  it("one account's token never reads another's bookmarks, notifications or relationships", async () => {
    const alice = await person();
    const bob = await person();
    const s = await bob.m.v1.statuses.create({ status: "Bob's note" });
    await alice.m.v1.statuses.$select(s.id).bookmark();
    await alice.m.v1.statuses.$select(s.id).favourite();
    await alice.m.v1.accounts.$select(String(bob.p.id)).follow();
    // Bob's token sees Bob's own lists only.
    expect(await bob.m.v1.bookmarks.list()).toEqual([]);
    expect(await bob.m.v1.favourites.list()).toEqual([]);
    const aliceNotes = await alice.m.v1.notifications.list();
    expect(aliceNotes).toEqual([]);
    const bobNotes = await bob.m.v1.notifications.list();
    expect(bobNotes.length).toBeGreaterThan(0);
    // Alice cannot read or dismiss Bob's notifications by id.
    const c = new Client();
    c.token = alice.token;
    expect((await c.get(`/api/v1/notifications/${bobNotes[0].id}`)).status).toBe(404);
    expect((await c.post(`/api/v1/notifications/${bobNotes[0].id}/dismiss`)).status).toBe(404);
    expect((await bob.m.v1.notifications.list()).length).toBe(bobNotes.length);
    // Relationships are always the token holder's own.
    const [fromBob] = await bob.m.v1.accounts.relationships.fetch({ id: [String(alice.p.id)] });
    expect(fromBob.following).toBe(false);
    expect(fromBob.followedBy).toBe(true);
    // The bookmark state in a status is the viewer's own.
    expect((await bob.m.v1.statuses.$select(s.id).fetch()).bookmarked).toBe(false);
    expect((await alice.m.v1.statuses.$select(s.id).fetch()).bookmarked).toBe(true);
    // A read-only token cannot write.
    const { client: reader } = await appToken(alice.p, "read");
    await expect(reader.v1.statuses.create({ status: "nope" })).rejects.toMatchObject({ statusCode: 403 });
    await expect(reader.v1.statuses.$select(s.id).favourite()).rejects.toMatchObject({ statusCode: 403 });
    await bob.m.v1.notifications.clear();
    expect(await bob.m.v1.notifications.list()).toEqual([]);
  });
});

describe("Mastodon media", () => {
  it("uploads an image with its description and posts it; bad files and foreign ids are refused", async () => {
    const a = await person();
    const media = await a.m.v2.media.create({ file: new Blob([PNG], { type: "image/png" }), description: "A dot" });
    expect(media.type).toBe("image");
    expect(media.description).toBe("A dot");
    const s = await a.m.v1.statuses.create({ status: "With a picture", mediaIds: [media.id] });
    expect(s.mediaAttachments).toHaveLength(1);
    expect(s.mediaAttachments[0].description).toBe("A dot");
    const img = await new Client().get(new URL(s.mediaAttachments[0].url ?? "").pathname);
    expect(img.status).toBe(200);
    await expect(a.m.v2.media.create({ file: new Blob(["x"], { type: "text/plain" }) })).rejects.toMatchObject({
      statusCode: 422,
    });
    const b = await person();
    await expect(b.m.v1.statuses.create({ status: "stolen", mediaIds: [media.id] })).rejects.toMatchObject({
      statusCode: 422,
    });
  });
});
