// A person's block of a whole server removes their followers there and tells that server, as
// Mastodon's AfterBlockDomainFromAccountService does: each follow from there is dropped here (counters
// exact) and a Reject(Follow) goes through the queue to the follower's server, which drops the follow
// too. Through every door: /v1 (the Settings page calls it), the Mastodon API, the CSV import. Two
// instances (tests/fediverse.ts): a.test blocks, b.test holds the followers.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appToken, connect, drain, instance, MemoryQueue, one, type Person, person } from "../fediverse";
import worker from "../worker";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
const both = [A, B];
const jobs = new MemoryQueue();
A.env.IMPORT_QUEUE = jobs as unknown as Queue<unknown>;
let unroute: () => void;
let ada: Person; // on a.test, blocks through /v1
let eve: Person; // on a.test, blocks through the Mastodon API
let fay: Person; // on a.test, blocks through a CSV import
let bob: Person; // on b.test
let cat: Person; // on b.test
const onB: Record<string, number> = {}; // a.test people's ids on b.test
const onA: Record<string, number> = {}; // b.test people's ids on a.test

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adadomains");
  eve = await person(A, "evedomains");
  fay = await person(A, "faydomains");
  bob = await person(B, "bobfollows");
  cat = await person(B, "catfollows");
  for (const local of [ada, eve, fay]) {
    onB[local.username] = (await bob.call("GET", `/v1/users/${local.username}@a.test`)).body.id;
    for (const far of [bob, cat])
      expect((await far.call("POST", `/v1/follows/${onB[local.username]}`)).status).toBe(200);
  }
  await drain(both);
  for (const far of [bob, cat]) onA[far.username] = (await ada.call("GET", `/v1/users/${far.username}@b.test`)).body.id;
}, 120_000);
afterAll(() => unroute());

const followsOn = (inst: typeof A, a: number, b: number) =>
  one(inst, "select count(*) as n from follows where follower_id = ? and followee_id = ?", a, b);
/** Every follower and following count on `inst` that disagrees with its follows rows. */
const wrongFollowCounts = (inst: typeof A) =>
  one(
    inst,
    `select count(*) as n from users u where follower_num != (select count(*) from follows where followee_id = u.id)
       or following_num != (select count(*) from follows where follower_id = u.id)`,
  );
/** The ids of the Follows `uid`'s followers sent, kept on a.test for a Reject. */
const keptFollowIds = (uid: number) =>
  one(A, "select count(*) as n from fed_kv where key like ?", `["notex","sent","follower",${uid},%`);
const rejects = (inst: typeof A) => inst.queue.items.filter((m) => (m as { notex?: string }).notex === "reject");

/** Both of `local`'s followers on b.test follow them on both servers. */
async function followedFromB(local: Person, n: number) {
  for (const far of [bob, cat]) {
    expect(await followsOn(A, onA[far.username], local.id)).toBe(n);
    expect(await followsOn(B, far.id, onB[local.username])).toBe(n);
  }
}

describe("a domain block removes that server's followers, and tells their server", () => {
  it("through /v1: the follows go here at once, the Reject(Follow)s go by the queue, and b.test drops them", async () => {
    await followedFromB(ada, 1);
    expect(await keptFollowIds(ada.id)).toBe(2);
    const res = await ada.call("POST", "/v1/domain-blocks", { domain: "b.test" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Here at once; there only once the queue has delivered (never in the request).
    for (const far of [bob, cat]) {
      expect(await followsOn(A, onA[far.username], ada.id)).toBe(0);
      expect(await followsOn(B, far.id, onB[ada.username])).toBe(1);
    }
    expect(rejects(A).length).toBe(1);
    await drain(both);
    await followedFromB(ada, 0);
    expect(await keptFollowIds(ada.id)).toBe(0);
    // eve and fay keep theirs.
    await followedFromB(eve, 1);
    await followedFromB(fay, 1);
    expect(await wrongFollowCounts(A)).toBe(0);
    expect(await wrongFollowCounts(B)).toBe(0);
    expect(await one(B, "select following_num as n from users where id = ?", bob.id)).toBe(2);
  });

  it("blocking the same server again sends nothing more", async () => {
    expect((await ada.call("POST", "/v1/domain-blocks", { domain: "b.test" })).status).toBe(200);
    expect(rejects(A)).toEqual([]);
  });

  it("through the Mastodon API (POST /api/v1/domain_blocks), for follows whose ids were not kept", async () => {
    // Follows from before their ids were kept: the Follow goes embedded without one, matched by
    // its actor and object on b.test (as Mastodon matches it).
    await A.env.DB.prepare("delete from fed_kv where key like ?").bind(`["notex","sent","follower",${eve.id},%`).run();
    const token = await appToken(A, eve);
    const res = await A.fetch(
      new Request(`${A.origin}/api/v1/domain_blocks`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "cf-connecting-ip": "10.8.8.8",
        },
        body: JSON.stringify({ domain: "b.test" }),
      }),
    );
    expect(res.status).toBe(200);
    expect(rejects(A).length).toBe(1);
    await drain(both);
    await followedFromB(eve, 0);
    await followedFromB(fay, 1);
    expect(await wrongFollowCounts(B)).toBe(0);
  });

  it("through a blocked_domains.csv import", async () => {
    const form = new FormData();
    form.set("kind", "domain_blocks");
    form.set("mode", "merge");
    form.set("file", new File(["b.test\n"], "blocked_domains.csv", { type: "text/csv" }));
    const res = await A.fetch(
      new Request(`${A.origin}/v1/imports/mastodon`, {
        method: "POST",
        body: form,
        headers: { authorization: `Bearer ${fay.token}`, "cf-connecting-ip": "10.9.9.9" },
      }),
    );
    expect(res.status).toBe(202);
    while (jobs.items.length) {
      const batch = createMessageBatch("notex-imports", [
        { id: `j${jobs.items.length}`, timestamp: new Date(), attempts: 1, body: jobs.items.shift() },
      ]);
      await worker.queue(batch, A.env);
      expect((await getQueueResult(batch, createExecutionContext())).retryMessages).toEqual([]);
    }
    expect(rejects(A).length).toBe(1);
    await drain(both);
    await followedFromB(fay, 0);
    expect(await wrongFollowCounts(A)).toBe(0);
    expect(await wrongFollowCounts(B)).toBe(0);
    expect(await one(B, "select following_num as n from users where id = ?", bob.id)).toBe(0);
  });
});
