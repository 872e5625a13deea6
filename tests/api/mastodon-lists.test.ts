// Mastodon's lists as apps page them: `limit` (each endpoint's default and largest page), Link
// headers on favourited_by / reblogged_by, bookmarks and favourites holding replies beside notes,
// notification type filters applied before the page is cut, dismiss and markers keeping the badge.
import { describe, expect, it, vi } from "vitest";
import { type TestUser, user } from "../factories";
import { Client, type Res } from "../http";
import { appToken } from "../mastodon";

async function person() {
  const p = await user();
  const { client, token } = await appToken(p, "read write follow");
  const raw = new Client();
  raw.token = token;
  return { p, m: client, raw };
}

/** The Link header's URL for `rel`, as a path the test client can request. */
function linkOf(res: Res, rel: "next" | "prev"): string | null {
  const header = res.headers.get("link") ?? "";
  const m = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(header);
  return m ? new URL(m[1]).pathname + new URL(m[1]).search : null;
}

/** Every page of a list, following its Link header's next. */
async function allPages(c: Client, path: string) {
  const ids: string[] = [];
  const sizes: number[] = [];
  for (let next: string | null = path, n = 0; next && n < 20; n++) {
    const res = await c.get(next);
    expect(res.status, next).toBe(200);
    ids.push(...res.body.map((x: { id: string }) => x.id));
    sizes.push(res.body.length);
    next = linkOf(res, "next");
  }
  return { ids, sizes };
}

// These build real lists (dozens of statuses and notices) through HTTP: on a shared machine that
// takes longer than the default test timeout.
vi.setConfig({ testTimeout: 180_000 });

const rowsRead = (res: Res) => Number(/d1-rows;desc="(\d+) read/.exec(res.headers.get("server-timing") ?? "")?.[1]);

describe("Mastodon list limits", () => {
  it("honours limit on timelines, accounts and notifications, with each endpoint's default and largest page", async () => {
    const writer = await person();
    const tag = `lim${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) ids.push((await writer.m.v1.statuses.create({ status: `Limit ${i} #${tag}` })).id);
    const newest = [...ids].reverse();
    const tagPath = `/api/v1/timelines/tag/${tag}`;
    // Default 20, as Mastodon's.
    expect((await writer.raw.get(tagPath)).body.map((s: { id: string }) => s.id)).toEqual(newest.slice(0, 20));
    const five = await writer.raw.get(`${tagPath}?limit=5`);
    expect(five.body.map((s: { id: string }) => s.id)).toEqual(newest.slice(0, 5));
    // The next page starts right after the fifth.
    const after = await writer.raw.get(linkOf(five, "next") ?? "");
    expect(after.body.map((s: { id: string }) => s.id)).toEqual(newest.slice(5, 10));
    // At most 40; a bad value is the default.
    expect((await writer.raw.get(`${tagPath}?limit=40`)).body).toHaveLength(40);
    expect((await writer.raw.get(`${tagPath}?limit=1000`)).body).toHaveLength(40);
    expect((await writer.raw.get(`${tagPath}?limit=abc`)).body).toHaveLength(20);
    const paged = await allPages(writer.raw, `${tagPath}?limit=7`);
    expect(paged.ids).toEqual(newest);
    expect(Math.max(...paged.sizes)).toBe(7);
    expect((await writer.raw.get(`/api/v1/accounts/${writer.p.id}/statuses?limit=3`)).body).toHaveLength(3);
    expect((await writer.raw.get("/api/v1/timelines/public?limit=2")).body).toHaveLength(2);

    // Home: the feed pages by the same limit.
    const reader = await person();
    await reader.m.v1.accounts.$select(String(writer.p.id)).follow();
    const home = await reader.raw.get("/api/v1/timelines/home?limit=30");
    expect(home.body.map((s: { id: string }) => s.id)).toEqual(newest.slice(0, 30));
    const homeAll = await allPages(reader.raw, "/api/v1/timelines/home?limit=13");
    expect(homeAll.ids).toEqual(newest);

    // Notifications: default 40, at most 80 (45 favourites here).
    for (const id of ids) await reader.m.v1.statuses.$select(id).favourite();
    expect((await writer.raw.get("/api/v1/notifications")).body).toHaveLength(40);
    expect((await writer.raw.get("/api/v1/notifications?limit=80")).body).toHaveLength(46);
    expect((await writer.raw.get("/api/v1/notifications?limit=4")).body).toHaveLength(4);
    // Favourites and bookmarks: statuses' limits.
    expect((await reader.raw.get("/api/v1/favourites")).body).toHaveLength(20);
    expect((await reader.raw.get("/api/v1/favourites?limit=40")).body).toHaveLength(40);

    // Accounts (followers, following, blocks, mutes): default 40, at most 80.
    const fans = await Promise.all([person(), person(), person()]);
    for (const f of fans) await f.m.v1.accounts.$select(String(writer.p.id)).follow();
    const two = await writer.raw.get(`/api/v1/accounts/${writer.p.id}/followers?limit=2`);
    expect(two.body).toHaveLength(2);
    const rest = await allPages(writer.raw, `/api/v1/accounts/${writer.p.id}/followers?limit=2`);
    expect(rest.ids).toHaveLength(4);
    for (const f of fans) await writer.m.v1.accounts.$select(String(f.p.id)).mute();
    expect((await writer.raw.get("/api/v1/mutes?limit=1")).body).toHaveLength(1);
    expect((await allPages(writer.raw, "/api/v1/mutes?limit=1")).ids).toHaveLength(3);
  });
});

describe("Mastodon favourited_by and reblogged_by", () => {
  it("page with a Link header, newest first", async () => {
    const author = await person();
    const s = await author.m.v1.statuses.create({ status: "Popular" });
    const fans = [await person(), await person(), await person()];
    for (const f of fans) {
      await f.m.v1.statuses.$select(s.id).favourite();
      await f.m.v1.statuses.$select(s.id).reblog();
    }
    const newestFirst = fans.map((f) => String(f.p.id)).reverse();
    for (const which of ["favourited_by", "reblogged_by"]) {
      const first = await author.raw.get(`/api/v1/statuses/${s.id}/${which}?limit=2`);
      expect(
        first.body.map((a: { id: string }) => a.id),
        which,
      ).toEqual(newestFirst.slice(0, 2));
      const next = linkOf(first, "next");
      expect(next, which).toBeTruthy();
      const second = await author.raw.get(next ?? "");
      expect(
        second.body.map((a: { id: string }) => a.id),
        which,
      ).toEqual(newestFirst.slice(2));
      expect(linkOf(second, "next"), which).toBeNull();
      // masto.js follows the header too.
      const seen: string[] = [];
      const list =
        which === "favourited_by"
          ? author.m.v1.statuses.$select(s.id).favouritedBy.list()
          : author.m.v1.statuses.$select(s.id).rebloggedBy.list();
      for await (const page of list) seen.push(...page.map((a) => a.id));
      expect(seen, which).toEqual(newestFirst);
    }
    expect((await author.raw.get(`/api/v1/statuses/${s.id}/favourited_by?max_id=%%%`)).status).toBeLessThan(500);
  });
});

describe("Mastodon bookmarks and favourites of replies", () => {
  it("list replies beside notes, newest saved first, across pages", async () => {
    const author = await person();
    const reader = await person();
    const note1 = await author.m.v1.statuses.create({ status: "First note" });
    const reply = await author.m.v1.statuses.create({ status: "A reply", inReplyToId: note1.id });
    const note2 = await author.m.v1.statuses.create({ status: "Second note" });
    expect((await reader.m.v1.statuses.$select(note1.id).bookmark()).bookmarked).toBe(true);
    expect((await reader.m.v1.statuses.$select(reply.id).bookmark()).bookmarked).toBe(true);
    expect((await reader.m.v1.statuses.$select(note2.id).bookmark()).bookmarked).toBe(true);
    expect((await reader.m.v1.statuses.$select(reply.id).fetch()).bookmarked).toBe(true);
    const order = [note2.id, reply.id, note1.id];
    expect((await reader.m.v1.bookmarks.list()).map((s) => s.id)).toEqual(order);
    expect((await allPages(reader.raw, "/api/v1/bookmarks?limit=1")).ids).toEqual(order);
    for (const s of [note1, reply, note2]) await reader.m.v1.statuses.$select(s.id).favourite();
    expect((await allPages(reader.raw, "/api/v1/favourites?limit=2")).ids).toEqual(order);
    expect((await reader.m.v1.statuses.$select(reply.id).unbookmark()).bookmarked).toBe(false);
    expect((await reader.m.v1.bookmarks.list()).map((s) => s.id)).toEqual([note2.id, note1.id]);
    // Another person's bookmarks are their own.
    expect(await author.m.v1.bookmarks.list()).toEqual([]);
    expect((await reader.raw.get("/api/v1/bookmarks?max_id=not-a-cursor")).status).toBe(400);
  });
});

async function noticed(n: number) {
  const alice = await person();
  const bob = await person();
  // The follow is the oldest notice; n favourites come after it.
  await bob.m.v1.accounts.$select(String(alice.p.id)).follow();
  for (let i = 0; i < n; i++) {
    const s = await alice.m.v1.statuses.create({ status: `Note ${i}` });
    await bob.m.v1.statuses.$select(s.id).favourite();
  }
  return { alice, bob };
}

const badge = async (p: TestUser) => (await p.get("/v1/me")).body.stats.noti as number;

describe("Mastodon notification filters and the unread badge", () => {
  it("filters types before the page is cut, so a filtered page is full", async () => {
    const { alice } = await noticed(25);
    const follows = await alice.raw.get("/api/v1/notifications?types[]=follow");
    expect(follows.body.map((n: { type: string }) => n.type)).toEqual(["follow"]);
    const noFavs = await alice.raw.get("/api/v1/notifications?exclude_types[]=favourite");
    expect(noFavs.body.map((n: { type: string }) => n.type)).toEqual(["follow"]);
    const favs = await alice.raw.get("/api/v1/notifications?types[]=favourite&limit=22");
    expect(favs.body).toHaveLength(22);
    expect(new Set(favs.body.map((n: { type: string }) => n.type))).toEqual(new Set(["favourite"]));
    const allFavs = await allPages(alice.raw, "/api/v1/notifications?types[]=favourite&types[]=mention&limit=20");
    expect(allFavs.ids).toHaveLength(25);
    expect(allFavs.sizes).toEqual([20, 5]);
    expect((await alice.m.v1.notifications.list({ types: ["follow"] })).map((n) => n.type)).toEqual(["follow"]);
    expect((await alice.raw.get("/api/v1/notifications?types[]=nonsense")).body).toEqual([]);
  });

  it("a page is full though likes of x-folders (no status to show) are among the newest notices", async () => {
    const alice = await person();
    const [bob, carol] = [await person(), await person()];
    await bob.m.v1.accounts.$select(String(alice.p.id)).follow();
    await carol.m.v1.accounts.$select(String(alice.p.id)).follow();
    const folder = (await alice.p.post("/v1/folders", { type: "Skill", name: "Knitting", descr: "", link: "" })).body;
    expect((await bob.p.post(`/v1/likes/${folder.id}?t=skill`)).status).toBe(200);
    const page = await alice.raw.get("/api/v1/notifications?limit=2");
    expect(page.body.map((n: { type: string }) => n.type)).toEqual(["follow", "follow"]);
    // Nothing an app can show is behind it: no Link to an empty page.
    expect(linkOf(page, "next")).toBeNull();
  });

  it("dismiss lowers the unread count; a marker is O(1) and clears the badge when it reaches the newest", async () => {
    const { alice } = await noticed(30);
    expect(await badge(alice.p)).toBe(31);
    const [newest, second] = (await alice.raw.get("/api/v1/notifications?limit=2")).body;
    expect((await alice.raw.post(`/api/v1/notifications/${second.id}/dismiss`)).status).toBe(200);
    expect((await alice.raw.get("/api/v1/notifications/unread_count")).body.count).toBe(30);
    expect(await badge(alice.p)).toBe(30);
    // Reading part of the list moves the marker; the badge is not recounted (no scan of the list).
    const older = (await alice.raw.get("/api/v1/notifications?limit=10")).body[9];
    const partial = await alice.raw.post("/api/v1/markers", { notifications: { last_read_id: older.id } });
    expect(partial.status).toBe(200);
    expect(partial.body.notifications.last_read_id).toBe(older.id);
    expect(rowsRead(partial)).toBeLessThan(10);
    expect(await badge(alice.p)).toBe(30);
    // Reading to the newest is the web's "opened the list": the badge is 0, in O(1) too.
    const full = await alice.raw.post("/api/v1/markers", { notifications: { last_read_id: newest.id } });
    expect(rowsRead(full)).toBeLessThan(10);
    expect(await badge(alice.p)).toBe(0);
    expect((await alice.raw.get("/api/v1/markers?timeline[]=notifications")).body.notifications.last_read_id).toBe(
      newest.id,
    );
    // A marker never moves back, and a new notice counts again.
    await alice.raw.post("/api/v1/markers", { notifications: { last_read_id: older.id } });
    expect((await alice.raw.get("/api/v1/markers")).body.notifications.last_read_id).toBe(newest.id);
    const carol = await person();
    await carol.m.v1.accounts.$select(String(alice.p.id)).follow();
    expect(await badge(alice.p)).toBe(1);
    expect((await alice.raw.get("/api/v1/notifications/unread_count")).body.count).toBe(1);
  });
});

describe("Read up to here: one rule for the page and for apps", () => {
  it("the page's list read to the top leaves an app's marker at the reader's own newest notice", async () => {
    const alice = await person();
    const bob = await person();
    const carol = await person();
    await bob.m.v1.accounts.$select(String(alice.p.id)).follow();
    const [mine] = (await alice.raw.get("/api/v1/notifications?limit=1")).body;
    // Someone else's notice is newer than every one of Alice's.
    await carol.m.v1.accounts.$select(String(bob.p.id)).follow();
    expect((await alice.p.post("/v1/notifications/read")).status).toBe(200);
    expect(await badge(alice.p)).toBe(0);
    expect((await alice.raw.get("/api/v1/markers?timeline[]=notifications")).body.notifications.last_read_id).toBe(
      mine.id,
    );
    // The app's marker at the same notice changes nothing more; a new notice counts again.
    await alice.raw.post("/api/v1/markers", { notifications: { last_read_id: mine.id } });
    await carol.m.v1.accounts.$select(String(alice.p.id)).follow();
    expect(await badge(alice.p)).toBe(1);
    expect((await alice.raw.get("/api/v1/notifications/unread_count")).body.count).toBe(1);
  });
});

describe("Mastodon statuses and the viewer's own rows", () => {
  it("a page reads the viewer's bookmarks of its statuses by key, however many they saved", async () => {
    const author = await person();
    const reader = await person();
    const tag = `bm${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push((await author.m.v1.statuses.create({ status: `Saved ${i} #${tag}` })).id);
    const path = `/api/v1/timelines/tag/${tag}?limit=2`;
    const before = rowsRead(await reader.raw.get(path));
    for (const id of ids) await reader.m.v1.statuses.$select(id).bookmark();
    const page = await reader.raw.get(path);
    expect(page.body.map((s: { bookmarked: boolean }) => s.bookmarked)).toEqual([true, true]);
    // Two bookmarks found by key, not fifteen walked.
    expect(rowsRead(page) - before).toBeLessThanOrEqual(4);
  });
});
