// Local and remote people are told apart one way (worker/features/users/locality.ts): a person
// stored from another server is never served, addressed or signed for as one of this server's.
// Their row here has an id under /ap/users/ like anyone's, so every door that takes such an id
// (the inboxes, the collections, WebFinger, the key store) is tried with one. Two NoteX instances
// as in federation-e2e.test.ts (tests/fediverse.ts).
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, drain, instance, type Instance, one, type Person, person, signedPost } from "../fediverse";

const A = instance("loc-a.test", env.DB);
const B = instance("loc-b.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on loc-a.test
let bob: Person; // on loc-b.test
let cyd: Person; // on loc-b.test, stored on loc-a.test as cydOnA
let cydOnA = 0;

const AP = { accept: "application/activity+json" };
const get = (inst: Instance, path: string, headers: Record<string, string> = AP) =>
  inst.fetch(new Request(`${inst.origin}${path}`, { headers }));
const keysOf = (uid: number) => one(A, "select count(*) as n from actor_keys where user_id = ?", uid);

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adaloc");
  bob = await person(B, "bobloc");
  cyd = await person(B, "cydloc");
  cydOnA = (await ada.call("GET", "/v1/users/cydloc@loc-b.test")).body.id;
  expect(cydOnA).toBeGreaterThan(0);
}, 120_000);
afterAll(() => unroute());

/** A Follow from bob (on B) of whatever `object` names, as B would sign and send it. */
const followFromBob = (object: string, tag: string) => {
  const actor = `${B.origin}/ap/users/${bob.id}`;
  return { id: `${actor}#follows/${tag}`, type: "Follow", actor, object };
};

describe("the inboxes take activities only for this server's own people", () => {
  it("a Follow naming a remote person's id here is not taken as theirs: no follow, no keys, no Accept", async () => {
    const res = await signedPost(
      B,
      bob.id,
      `${A.origin}/ap/inbox`,
      followFromBob(`${A.origin}/ap/users/${cydOnA}`, "shared"),
    );
    expect(res.status).toBeLessThan(300);
    await drain(both);
    const bobOnA = await one(
      A,
      "select user_id as n from remote_actors where uri = ?",
      `${B.origin}/ap/users/${bob.id}`,
    );
    expect(await one(A, "select count(*) as n from follows where followee_id = ?", cydOnA)).toBe(0);
    expect(await one(A, "select count(*) as n from follows where follower_id = ?", bobOnA)).toBe(0);
    expect(await keysOf(cydOnA)).toBe(0);
    // Nothing reached B claiming to come from the copy of cyd (an Accept signed as /ap/users/{cydOnA}).
    expect(await one(B, "select count(*) as n from follows where follower_id = ?", bob.id)).toBe(0);
  });

  it("a remote person's own inbox here does not exist (404), by id or by name, and keeps nothing", async () => {
    for (const who of [String(cydOnA), "cydloc@loc-b.test", "cydloc"]) {
      const res = await signedPost(
        B,
        bob.id,
        `${A.origin}/ap/users/${encodeURIComponent(who)}/inbox`,
        followFromBob(`${A.origin}/ap/users/${cydOnA}`, `own-${who}`),
      );
      expect(res.status, who).toBe(404);
    }
    await drain(both);
    expect(await one(A, "select count(*) as n from follows where followee_id = ?", cydOnA)).toBe(0);
    expect(await keysOf(cydOnA)).toBe(0);
  });

  it("a local person's Follow still works through the same doors (the rule lets them through)", async () => {
    const res = await signedPost(
      B,
      bob.id,
      `${A.origin}/ap/users/${ada.id}/inbox`,
      followFromBob(`${A.origin}/ap/users/${ada.id}`, "ada"),
    );
    expect(res.status).toBeLessThan(300);
    await drain(both);
    expect(await one(A, "select count(*) as n from follows where followee_id = ?", ada.id)).toBe(1);
    expect(await keysOf(ada.id)).toBe(1);
  });
});

describe("documents, collections and WebFinger serve only this server's own people", () => {
  it("a remote person's actor, outbox, followers and following answer 404 here, and mint no keys", async () => {
    for (const path of [
      `/ap/users/${cydOnA}`,
      `/ap/users/${cydOnA}/outbox`,
      `/ap/users/${cydOnA}/outbox?cursor=`,
      `/ap/users/${cydOnA}/followers`,
      `/ap/users/${cydOnA}/followers?cursor=0`,
      `/ap/users/${cydOnA}/following`,
      `/ap/users/${cydOnA}/following?cursor=0`,
    ])
      expect((await get(A, path)).status, path).toBe(404);
    expect(await keysOf(cydOnA)).toBe(0);
  });

  it("WebFinger finds a local person and nobody stored from elsewhere", async () => {
    const finger = (resource: string) => get(A, `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, {});
    expect((await finger("acct:adaloc@loc-a.test")).status).toBe(200);
    for (const resource of [
      "acct:cydloc@loc-b.test",
      "acct:cydloc@loc-b.test@loc-a.test",
      `${A.origin}/ap/users/${cydOnA}`,
      `${A.origin}/@cydloc@loc-b.test`,
      `${A.origin}/cydloc@loc-b.test`,
    ])
      expect((await finger(resource)).status, resource).toBe(404);
    expect(await keysOf(cydOnA)).toBe(0);
  });
});

afterAll(async () => {
  // cyd's own server never heard from the copy of cyd.
  expect(await one(B, "select count(*) as n from follows where followee_id = ?", cyd.id)).toBe(0);
});
