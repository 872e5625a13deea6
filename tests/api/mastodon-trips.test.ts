// How many D1 round trips a Mastodon app's requests take (Server-Timing under APP_ENV=local). The
// timelines are one: the page's statement reads its authors' accounts and the viewer's bookmarks
// on its own rows, and a max_id or since_id is looked up inside the same batch. A write that
// answers a status is one too: its statements, then the status read in the same batch.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { user } from "../factories";
import { BASE } from "../http";
import { appToken } from "../mastodon";

async function get(token: string, path: string, method = "GET", body?: object) {
  const headers = { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) };
  const res = await (exports as any).default.fetch(
    new Request(`${BASE}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined }),
  );
  return { status: res.status as number, trips: tripsOf(res.headers.get("server-timing")), body: await res.json() };
}

describe("Mastodon reads' round trips", () => {
  // The accounts and bookmarks are read on the page's own rows now: what they show must be whole.
  it("a timeline's statuses carry full accounts and the viewer's bookmarks, a reblog's original too", async () => {
    const [alice, bob, carol] = [await user(), await user(), await user()];
    const post = (await alice.post("/v1/notes", { label: "idea", content: "<p>folded #foldtag</p>" })).body.note;
    await bob.post(`/v1/follows/${alice.id}`);
    await carol.post(`/v1/follows/${bob.id}`);
    const { client: bobApp } = await appToken(bob, "read write follow");
    await bobApp.v1.accounts.updateCredentials({ displayName: "Bob Booster", note: "Boosts things" });
    await bobApp.v1.statuses.$select(String(post.id)).reblog();
    const { client: carolApp, token } = await appToken(carol, "read write follow");
    await carolApp.v1.statuses.$select(String(post.id)).bookmark();
    const res = await (exports as any).default.fetch(
      new Request(`${BASE}/api/v1/timelines/home`, { headers: { authorization: `Bearer ${token}` } }),
    );
    const [boost] = await res.json();
    expect(boost.account).toMatchObject({ id: String(bob.id), display_name: "Bob Booster", following_count: 1 });
    expect(boost.account.note).toContain("Boosts things");
    expect(boost.account.followers_count).toBe(1);
    expect(boost.reblog).toMatchObject({ id: String(post.id), bookmarked: true });
    expect(boost.reblog.account).toMatchObject({ id: String(alice.id), followers_count: 1, statuses_count: 1 });
    // A reply read by id names whom it answers and carries its author's whole account.
    const { client: aliceApp } = await appToken(alice, "read write");
    const answer = await aliceApp.v1.statuses.create({ status: "thanks", inReplyToId: boost.reblog.id });
    await carolApp.v1.statuses.$select(answer.id).bookmark();
    const got = await carolApp.v1.statuses.$select(answer.id).fetch();
    expect(got).toMatchObject({ inReplyToAccountId: String(alice.id), bookmarked: true });
    expect(got.account).toMatchObject({ id: String(alice.id), followersCount: 1 });
    const tag = await carolApp.v1.timelines.tag.$select("foldtag").list();
    expect(tag[0]).toMatchObject({ bookmarked: true, account: { id: String(alice.id), followersCount: 1 } });
  });

  it("each read stays within its trips", async () => {
    const a = await user();
    const { client, token } = await appToken(a, "read write follow");
    const s = await client.v1.statuses.create({ status: "trip words #triptag" });
    const r = await client.v1.statuses.create({ status: "a reply", inReplyToId: s.id });
    const fan = await user();
    const { client: fanApp } = await appToken(fan, "read write follow");
    await fanApp.v1.statuses.$select(s.id).favourite();
    await fanApp.v1.statuses.$select(r.id).favourite();
    const [newest, older] = await client.v1.notifications.list();
    // A notice's status and account are whole, read in the same batch as the notice.
    expect(newest).toMatchObject({ type: "favourite", status: { id: r.id }, account: { id: String(fan.id) } });
    expect(older).toMatchObject({ type: "favourite", status: { id: s.id, account: { id: String(a.id) } } });
    await fanApp.v1.accounts.$select(String(a.id)).follow();
    const [follower] = await client.v1.accounts.$select(String(a.id)).followers.list();
    // A follower's account is whole, read on the list's own rows.
    expect(follower).toMatchObject({ id: String(fan.id), followingCount: 1, statusesCount: 0 });
    const ceilings: [string, number][] = [
      ["/api/v1/timelines/home", 1],
      [`/api/v1/timelines/home?max_id=${s.id}&since_id=2`, 1],
      ["/api/v1/timelines/public", 1],
      [`/api/v1/timelines/public?max_id=${s.id}`, 1],
      [`/api/v1/timelines/public?min_id=${s.id}`, 1],
      ["/api/v1/timelines/tag/triptag", 1],
      [`/api/v1/timelines/tag/triptag?max_id=${s.id}&since_id=2`, 1],
      [`/api/v1/accounts/${a.id}/statuses`, 1],
      ["/api/v1/bookmarks", 1],
      ["/api/v1/favourites", 1],
      ["/api/v1/notifications", 1],
      [`/api/v1/notifications?max_id=${newest.id}&since_id=1`, 1],
      [`/api/v1/notifications?min_id=${older.id}`, 1],
      [`/api/v1/timelines/home?min_id=${s.id}`, 1],
      [`/api/v1/timelines/tag/triptag?min_id=${s.id}`, 1],
      [`/api/v1/accounts/${a.id}/statuses?min_id=${s.id}`, 1],
      ["/api/v1/suggestions", 1],
      ["/api/v1/notifications?types[]=favourite", 1],
      [`/api/v1/notifications/${older.id}`, 1],
      [`/api/v1/statuses/${s.id}`, 1],
      [`/api/v1/statuses/${r.id}`, 1],
      [`/api/v1/statuses/${s.id}/context`, 1],
      [`/api/v1/statuses/${r.id}/context`, 1],
      [`/api/v1/statuses/${s.id}/source`, 1],
      [`/api/v1/statuses/${r.id}/source`, 1],
      [`/api/v1/statuses/${s.id}/history`, 1],
      [`/api/v1/statuses/${r.id}/history`, 1],
      [`/api/v1/statuses/${s.id}/favourited_by`, 1],
      [`/api/v1/statuses/${s.id}/reblogged_by`, 1],
      [`/api/v1/statuses/${r.id}/reblogged_by`, 1],
      [`/api/v1/accounts/${a.id}/followers`, 1],
      [`/api/v1/accounts/${a.id}/following`, 1],
      ["/api/v1/accounts/verify_credentials", 1],
      ["/api/v2/search?q=trip", 1],
      ["/api/v2/search?q=trip&type=statuses&offset=15", 1],
      [`/api/v2/search?q=${a.username}&type=accounts`, 1],
      [`/api/v1/accounts/search?q=${a.username}`, 1],
    ];
    // A search's statuses and accounts are whole, read on the search's own rows.
    const found = (await get(token, "/api/v2/search?q=trip")).body;
    expect(found.statuses).toEqual([(await get(token, `/api/v1/statuses/${s.id}`)).body]);
    const byName = (await get(token, `/api/v2/search?q=${a.username}&type=accounts`)).body;
    expect(byName.accounts).toEqual([(await get(token, `/api/v1/accounts/${a.id}`)).body]);
    expect((await get(token, `/api/v1/accounts/search?q=${a.username}`)).body).toEqual(byName.accounts);
    // Refusals come from the same batch's rows: a status or account that is not there is a 404.
    for (const path of [
      "/api/v1/statuses/999998/context",
      "/api/v1/statuses/999998",
      "/api/v1/accounts/999999/statuses",
    ])
      expect((await get(token, path)).status, path).toBe(404);
    for (const [path, most] of ceilings) {
      const r = await get(token, path);
      expect(r.status, path).toBe(200);
      expect(r.trips, path).toBeGreaterThan(0);
      expect(r.trips, path).toBeLessThanOrEqual(most);
    }
  });

  // A write and the status it answers go in one batch: the batch's SELECTs see its own writes, and
  // a refusal is read from the same batch's rows.
  it("each interaction is one trip: the write, then the status read back", async () => {
    const [a, fan] = [await user(), await user()];
    const { client } = await appToken(a, "read write follow");
    const s = await client.v1.statuses.create({ status: "write trips" });
    const r = await client.v1.statuses.create({ status: "a reply", inReplyToId: s.id });
    const { token } = await appToken(fan, "read write follow");
    const ceilings: [string, string, Record<string, unknown>][] = [
      [`/api/v1/statuses/${s.id}/favourite`, s.id, { favourited: true, favourites_count: 1 }],
      [`/api/v1/statuses/${s.id}/favourite`, s.id, { favourited: true, favourites_count: 1 }],
      [`/api/v1/statuses/${r.id}/favourite`, r.id, { favourited: true, favourites_count: 1 }],
      [`/api/v1/statuses/${s.id}/unfavourite`, s.id, { favourited: false, favourites_count: 0 }],
      [`/api/v1/statuses/${r.id}/unfavourite`, r.id, { favourited: false, favourites_count: 0 }],
      [`/api/v1/statuses/${s.id}/bookmark`, s.id, { bookmarked: true }],
      [`/api/v1/statuses/${r.id}/bookmark`, r.id, { bookmarked: true }],
      [`/api/v1/statuses/${s.id}/unbookmark`, s.id, { bookmarked: false }],
      [`/api/v1/statuses/${r.id}/unbookmark`, r.id, { bookmarked: false }],
      [`/api/v1/statuses/${s.id}/reblog`, "", { reblog: { id: s.id, reblogged: true, reblogs_count: 1 } }],
      [`/api/v1/statuses/${s.id}/reblog`, "", { reblog: { id: s.id, reblogged: true, reblogs_count: 1 } }],
      [`/api/v1/statuses/${s.id}/unreblog`, s.id, { reblogged: false, reblogs_count: 0 }],
    ];
    for (const [path, id, shape] of ceilings) {
      const res = await get(token, path, "POST");
      expect(res.status, path).toBe(200);
      expect(res.body, path).toMatchObject(shape);
      if (id) expect(res.body.id, path).toBe(id);
      else expect(res.body.account.id, path).toBe(String(fan.id));
      expect(res.trips, path).toBe(1);
      // The answer is the status as a read of it gives it.
      expect(res.body, path).toEqual((await get(token, `/api/v1/statuses/${res.body.id}`)).body);
    }
    // Refusals from the same batch: an unknown status is a 404, a status across a block a 403,
    // and neither changed anything.
    await client.v1.accounts.$select(String(fan.id)).block();
    for (const [path, status] of [
      ["/api/v1/statuses/1999999998/favourite", 404],
      ["/api/v1/statuses/1999999998/bookmark", 404],
      ["/api/v1/statuses/1999999998/reblog", 404],
      [`/api/v1/statuses/${s.id}/favourite`, 403],
      [`/api/v1/statuses/${s.id}/bookmark`, 403],
      [`/api/v1/statuses/${s.id}/reblog`, 403],
    ] as const) {
      const res = await get(token, path, "POST");
      expect(res.status, path).toBe(status);
      expect(res.trips, path).toBe(1);
    }
    const fresh = await client.v1.statuses.$select(s.id).fetch();
    expect(fresh).toMatchObject({ favouritesCount: 0, reblogsCount: 0 });
    // A reblog of a reblog shares the original: the answer is the person's own reblog of it.
    const third = await user();
    const { client: thirdApp } = await appToken(third, "read write follow");
    const boost = await thirdApp.v1.statuses.$select(s.id).reblog();
    const fourth = await user();
    const { token: fourthToken } = await appToken(fourth, "read write follow");
    const again = await get(fourthToken, `/api/v1/statuses/${boost.id}/reblog`, "POST");
    expect(again).toMatchObject({ status: 200, trips: 1 });
    expect(again.body).toMatchObject({ account: { id: String(fourth.id) }, reblog: { id: s.id, reblogs_count: 2 } });
  });

  it("an edit and a delete are one trip: the write and the status, read after the edit or before the delete", async () => {
    const [a, other] = [await user(), await user()];
    const { client, token } = await appToken(a, "read write follow");
    const { token: otherToken } = await appToken(other, "read write follow");
    const s = await client.v1.statuses.create({ status: "first words #howto" });
    const r = await client.v1.statuses.create({ status: "a reply", inReplyToId: s.id });
    for (const [id, text] of [
      [s.id, "second words"],
      [r.id, "a better reply"],
    ]) {
      // Someone else's status is not found, and stays as it was.
      const refused = await get(otherToken, `/api/v1/statuses/${id}`, "PUT", { status: "not mine" });
      expect(refused.status).toBe(404);
      expect(refused.trips).toBe(1);
      const edited = await get(token, `/api/v1/statuses/${id}`, "PUT", { status: text });
      expect(edited.status).toBe(200);
      expect(edited.trips).toBe(1);
      expect(edited.body.content).toBe(`<p>${text}</p>`);
      expect(edited.body).toEqual((await get(token, `/api/v1/statuses/${id}`)).body);
    }
    // The source is the author's own: someone else's is not found.
    expect(await get(otherToken, `/api/v1/statuses/${s.id}/source`)).toMatchObject({ status: 404, trips: 1 });
    expect((await get(token, `/api/v1/statuses/${s.id}/source`)).body).toEqual({
      id: s.id,
      text: "second words",
      spoiler_text: "",
    });
    expect((await get(token, `/api/v1/statuses/${r.id}/source`)).body.text).toBe("a better reply");
    // The note keeps its x-label (shown as a tag) and its edit history.
    const note = await get(token, `/api/v1/statuses/${s.id}`);
    expect(note.body.tags).toEqual([expect.objectContaining({ name: "howto" })]);
    expect(note.body.edited_at).not.toBeNull();
    const history = await get(otherToken, `/api/v1/statuses/${s.id}/history`);
    expect(history.trips).toBe(1);
    expect(history.body[1].account).toEqual(note.body.account);
    expect(history.body.map((v: { content: string }) => v.content)).toEqual([
      expect.stringContaining("first words"),
      "<p>second words</p>",
    ]);

    const d = await client.v1.statuses.create({ status: "to go\nand redraft" });
    const dr = await client.v1.statuses.create({ status: "a reply to go", inReplyToId: s.id });
    for (const [id, text] of [
      [dr.id, "a reply to go"],
      [d.id, "to go\nand redraft"],
    ]) {
      const refused = await get(otherToken, `/api/v1/statuses/${id}`, "DELETE");
      expect(refused.status).toBe(404);
      expect(refused.trips).toBe(1);
      const before = (await get(token, `/api/v1/statuses/${id}`)).body;
      const gone = await get(token, `/api/v1/statuses/${id}`, "DELETE");
      expect(gone.status).toBe(200);
      expect(gone.trips).toBe(1);
      expect(gone.body).toEqual({ ...before, text });
      expect((await get(token, `/api/v1/statuses/${id}`)).status).toBe(404);
    }
    // The reply's parent counts one reply again, and the author one note fewer.
    expect((await get(token, `/api/v1/statuses/${s.id}`)).body).toMatchObject({
      replies_count: 1,
      account: { statuses_count: 1 },
    });
  });
});
