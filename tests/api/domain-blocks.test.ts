// A person's own block of a whole server (Mastodon's "Block domain"), through every door: /v1, the
// Mastodon API (Link-header paging), and the filters it sets off. People "elsewhere" here are
// accounts with a remote_actors row naming their server (what the inbox stores for them), so they
// can also post, reply and like through HTTP as the test needs.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { snapshot } from "../db-snapshot";
import { type TestUser, user, users } from "../factories";
import { Client } from "../http";
import { appToken } from "../mastodon";

let seq = 0;
/** A person whose account says they live on `host`. */
async function elsewhere(host: string): Promise<TestUser> {
  const u = await user();
  const uri = `https://${host}/users/${u.username}${seq++}`;
  await env.DB.prepare(
    "insert into remote_actors (user_id, uri, host, inbox, url, fetched_at) values (?, ?, ?, ?, ?, ?)",
  )
    .bind(u.id, uri, host, `${uri}/inbox`, uri, Date.now())
    .run();
  return u;
}

async function note(u: TestUser, text: string) {
  const res = await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.note.id as number;
}

const ids = (list: { notes?: { id: number }[]; replies?: { id: number }[] }) =>
  (list.notes ?? list.replies ?? []).map((x) => x.id);
const follows = (a: number, b: number) =>
  env.DB.prepare("select count(*) as n from follows where follower_id = ? and followee_id = ?")
    .bind(a, b)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

describe("/v1/domain-blocks", () => {
  it("blocks a server by its domain, lists it, and lifts it; bad input is a 422 that changes nothing", async () => {
    const a = await user();
    const on = await a.post("/v1/domain-blocks", { domain: " Spam.Example " });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body).toEqual({ domain: "spam.example", blocking: true });
    expect((await a.post("/v1/domain-blocks", { domain: "https://spam.example/@x" })).body).toEqual({
      domain: "spam.example",
      blocking: true,
    });
    await a.post("/v1/domain-blocks", { domain: "other.example" });
    const list = await a.get("/v1/domain-blocks?page=1");
    expect(list.status).toBe(200);
    expect(list.body.domains.map((d: { domain: string }) => d.domain)).toEqual(["other.example", "spam.example"]);
    expect(list.body.paginator).toEqual({ page: 1, is_end: true });

    for (const bad of ["", "not a domain", "localhost"]) {
      const before = await snapshot();
      const res = await a.post("/v1/domain-blocks", { domain: bad });
      expect(res.status, bad).toBe(422);
      expect(res.body.message).toBe("Please enter a server's domain.");
      expect(await snapshot()).toBe(before);
    }
    const own = await a.post("/v1/domain-blocks", { domain: "notex.test" });
    expect(own.status).toBe(422);
    expect(own.body.message).toBe("You cannot block this server itself.");

    expect((await a.delete("/v1/domain-blocks/spam.example")).body).toEqual({
      domain: "spam.example",
      blocking: false,
    });
    expect((await a.get("/v1/domain-blocks?page=1")).body.domains.map((d: { domain: string }) => d.domain)).toEqual([
      "other.example",
    ]);
    expect((await new Client().get("/v1/domain-blocks?page=1")).status).toBe(401);
    // Someone else's list is their own.
    expect((await (await user()).get("/v1/domain-blocks?page=1")).body.domains).toEqual([]);
  });

  it("pages the list newest first with a cursor", async () => {
    const a = await user();
    for (let i = 0; i < 22; i++) await a.post("/v1/domain-blocks", { domain: `p${i}.example` });
    const first = await a.get("/v1/domain-blocks?page=1");
    expect(first.body.domains).toHaveLength(20);
    expect(first.body.domains[0].domain).toBe("p21.example");
    const second = await a.get(`/v1/domain-blocks?page=2&cursor=${first.body.cursor}`);
    expect(second.body.domains.map((d: { domain: string }) => d.domain)).toEqual(["p1.example", "p0.example"]);
    expect(second.body.paginator.is_end).toBe(true);
  });
});

describe("what a domain block does", () => {
  it("cuts the follows both ways with that server's people (counters exact), and no follow is made again", async () => {
    const [a, friend] = await users(2);
    const [far1, far2, near] = [
      await elsewhere("far.example"),
      await elsewhere("far.example"),
      await elsewhere("near.example"),
    ];
    await far1.post(`/v1/follows/${a.id}`);
    await far2.post(`/v1/follows/${a.id}`);
    await a.post(`/v1/follows/${far1.id}`);
    await near.post(`/v1/follows/${a.id}`);
    await friend.post(`/v1/follows/${a.id}`);
    expect(await follows(far1.id, a.id)).toBe(1);

    expect((await a.post("/v1/domain-blocks", { domain: "far.example" })).status).toBe(200);
    expect(await follows(far1.id, a.id)).toBe(0);
    expect(await follows(far2.id, a.id)).toBe(0);
    expect(await follows(a.id, far1.id)).toBe(0);
    // Other servers' people and people here keep following.
    expect(await follows(near.id, a.id)).toBe(1);
    expect(await follows(friend.id, a.id)).toBe(1);
    expect(await wrongCounters()).toEqual([]);

    const back = await far1.post(`/v1/follows/${a.id}`);
    expect(back.status).toBe(403);
    expect(back.body.message).toBe("This user has blocked your server.");
    const mine = await a.post(`/v1/follows/${far2.id}`);
    expect(mine.status).toBe(403);
    expect(mine.body.message).toBe("You have blocked this user's server. Unblock it to follow them.");
    expect(await follows(far1.id, a.id)).toBe(0);

    await a.delete("/v1/domain-blocks/far.example");
    expect((await far1.post(`/v1/follows/${a.id}`)).status).toBe(200);
  });

  it("takes the server's notes, renotes, replies and notifications out of the blocker's lists, and only theirs", async () => {
    const [a, friend, other] = await users(3);
    const far = await elsewhere("far.example");
    const tag = `dom${Date.now() % 1e6}`;
    const na = await note(a, `mine #${tag}`);
    const nf = await note(far, `from afar #${tag}`);
    await a.post(`/v1/follows/${friend.id}`);
    await friend.post("/v1/renotes", { renote_id: nf, content: "" });
    const rf = (await far.post("/v1/replies", { parent: -na, content: "<p>far says</p>" })).body.id;
    await far.post(`/v1/likes/${na}?t=note`);
    const fromFar = async () =>
      (await a.get("/v1/notifications?page=1")).body.notis.filter(
        (n: { user: { id: number } }) => n.user.id === far.id,
      );
    expect((await fromFar()).length).toBeGreaterThan(0);

    expect((await a.post("/v1/domain-blocks", { domain: "far.example" })).status).toBe(200);
    const feed = (await a.get("/v1/feeds?page=1")).body.notes;
    expect(feed.some((n: { renote: { id: number } | null }) => n.renote?.id === nf)).toBe(false);
    expect(ids((await a.get(`/v1/tags/${tag}?page=1`)).body)).toEqual([na]);
    expect(ids((await a.get(`/v1/notes?uid=${far.id}&page=1`)).body)).toEqual([]);
    expect(ids((await a.get(`/v1/replies?pid=${-na}&page=1`)).body)).not.toContain(rf);
    expect(await fromFar()).toEqual([]);
    // A new act from there notifies nobody who blocked it.
    await far.delete(`/v1/likes/${na}?t=note`);
    await far.post(`/v1/likes/${na}?t=note`);
    expect(await fromFar()).toEqual([]);
    expect(JSON.parse((await a.get(`/v1/users/${a.username}`)).body.jstats).noti).toBe(0);
    // Everyone else sees them as before.
    expect(ids((await other.get(`/v1/tags/${tag}?page=1`)).body)).toEqual(expect.arrayContaining([na, nf]));
    expect(ids((await other.get(`/v1/replies?pid=${-na}&page=1`)).body)).toContain(rf);
    // Lifting it brings the posts back.
    await a.delete("/v1/domain-blocks/far.example");
    expect(ids((await a.get(`/v1/tags/${tag}?page=1`)).body)).toEqual(expect.arrayContaining([na, nf]));
  });
});

describe("Mastodon API: /api/v1/domain_blocks", () => {
  it("blocks with write:blocks, lists strings newest first with Link paging, and unblocks", async () => {
    const a = await user();
    const app = new Client();
    app.token = (await appToken(a, "read write")).token;
    for (const d of ["one.example", "two.example", "three.example"]) {
      const res = await app.request("POST", "/api/v1/domain_blocks", `domain=${d}`, {
        "content-type": "application/x-www-form-urlencoded",
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({});
    }
    const all = await app.get("/api/v1/domain_blocks");
    expect(all.body).toEqual(["three.example", "two.example", "one.example"]);
    const page = await app.get("/api/v1/domain_blocks?limit=2");
    expect(page.body).toEqual(["three.example", "two.example"]);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
    expect(next).toBeTruthy();
    const rest = await app.get(next!.replace("http://notex.test", ""));
    expect(rest.body).toEqual(["one.example"]);

    const bad = await app.post("/api/v1/domain_blocks", { domain: "" });
    expect(bad.status).toBe(422);
    expect((await app.request("DELETE", "/api/v1/domain_blocks?domain=two.example")).status).toBe(200);
    expect((await app.get("/api/v1/domain_blocks")).body).toEqual(["three.example", "one.example"]);
    expect((await a.get("/v1/domain-blocks?page=1")).body.domains).toHaveLength(2);

    const reader = new Client();
    reader.token = (await appToken(a, "read")).token;
    expect((await reader.post("/api/v1/domain_blocks", { domain: "x.example" })).status).toBe(403);
  });

  it("says domain_blocking in the relationship with someone on a blocked server", async () => {
    const a = await user();
    const far = await elsewhere("rel.example");
    const app = new Client();
    app.token = (await appToken(a, "read write")).token;
    await app.post("/api/v1/domain_blocks", { domain: "rel.example" });
    const rel = await app.get(`/api/v1/accounts/relationships?id[]=${far.id}`);
    expect(rel.body[0].domain_blocking).toBe(true);
  });
});
