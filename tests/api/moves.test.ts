// Account migration between two NoteX instances (tests/fediverse.ts), as Mastodon does it: the new
// account on m.test names the old one on n.test as an alias; the old one moves; its followers on
// both servers follow the new account and are told; the old account says where it went and
// federates nothing new. Every delivery is signed and verified as in the other federation tests.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, instance, migrate, one, type Person, person, routeFetch, signedPost } from "../fediverse";

const A = instance("m.test", env.DB); // the new home
const B = instance("n.test", env.DB_B); // the old home
const both = [A, B];
let unroute: () => void;
let ada: Person; // m.test: the account bob moves to
let carol: Person; // m.test: follows bob
let frank: Person; // m.test: follows bob, blocks ada
let bob: Person; // n.test: moves out
let dan: Person; // n.test: follows bob
let bobOnA = 0;

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch(both);
  [ada, carol, frank] = [await person(A, "adanew"), await person(A, "carolfan"), await person(A, "frankfan")];
  [bob, dan] = [await person(B, "bobold"), await person(B, "danlocal")];
  bobOnA = (await carol.call("GET", "/v1/users/bobold@n.test")).body.id;
  for (const p of [carol, frank]) expect((await p.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
  expect((await dan.call("POST", `/v1/follows/${bob.id}`)).status).toBe(200);
  expect((await frank.call("POST", `/v1/blocks/${ada.id}`)).status).toBeLessThan(300);
  await drain(both);
}, 120_000);
afterAll(() => unroute());

const follows = (inst: typeof A, follower: number, followee: number) =>
  one(inst, "select count(*) as n from follows where follower_id = ? and followee_id = ?", follower, followee);
const actorOf = async (inst: typeof A, id: number) =>
  (await inst
    .fetch(new Request(`${inst.origin}/ap/users/${id}`, { headers: { accept: "application/activity+json" } }))
    .then((r) => r.json())) as Record<string, unknown>;
const bobUri = () => `${B.origin}/ap/users/${bob.id}`;
const adaUri = () => `${A.origin}/ap/users/${ada.id}`;

describe("moving an account", () => {
  it("an alias is looked up on its server and served as the actor's alsoKnownAs", async () => {
    const bad = await ada.call("POST", "/v1/moves/aliases", { handle: "nobody@n.test" });
    expect(bad.status).toBe(404);
    const self = await ada.call("POST", "/v1/moves/aliases", { handle: "adanew@m.test" });
    expect(self.status).toBe(422);
    const added = await ada.call("POST", "/v1/moves/aliases", { handle: "@bobold@n.test" });
    expect(added.status).toBe(200);
    expect(added.body.aliases.map((a: { uri: string }) => a.uri)).toEqual([bobUri()]);
    expect((await actorOf(A, ada.id)).alsoKnownAs).toEqual(bobUri());
  });

  it("moving out to an account that does not list this one is refused, with the password checked first", async () => {
    const wrong = await bob.call("POST", "/v1/moves", { handle: "carolfan@m.test", password: "nope" });
    expect(wrong.status).toBe(401);
    const unlisted = await bob.call("POST", "/v1/moves", { handle: "carolfan@m.test", password: "secret123" });
    expect(unlisted.status).toBe(422);
    expect(unlisted.body.code).toBe("not_aliased");
    expect(await one(B, "select count(*) as n from account_moves")).toBe(0);
  });

  it("a move out marks the actor movedTo, and its followers on both servers follow the new account", async () => {
    const moved = await bob.call("POST", "/v1/moves", { handle: "adanew@m.test", password: "secret123" });
    expect(moved.status).toBe(200);
    expect(moved.body.moved_to.uri).toBe(adaUri());
    await drain(both);
    expect((await actorOf(B, bob.id)).movedTo).toBe(adaUri());
    // carol (on the new account's server) moved over, and was told.
    expect(await follows(A, carol.id, ada.id)).toBe(1);
    expect(await follows(A, carol.id, bobOnA)).toBe(0);
    const notis = await carol.call("GET", "/v1/notifications");
    const move = notis.body.notis.find((n: { action: string }) => n.action === "move");
    expect(move?.user?.username ?? move?.username).toBeTruthy();
    // frank blocked ada: his follow of bob stays, as Mastodon's.
    expect(await follows(A, frank.id, ada.id)).toBe(0);
    expect(await follows(A, frank.id, bobOnA)).toBe(1);
    // dan (on the old server) follows ada there now; ada's server has his follow.
    const adaOnB = await one(B, "select user_id as n from remote_actors where uri = ?", adaUri());
    expect(await follows(B, dan.id, adaOnB)).toBe(1);
    expect(await follows(B, dan.id, bob.id)).toBe(0);
    const danOnA = await one(
      A,
      "select user_id as n from remote_actors where uri = ?",
      `${B.origin}/ap/users/${dan.id}`,
    );
    expect(await follows(A, danOnA, ada.id)).toBe(1);
    // The old account is still readable, and says where it went.
    const profile = await dan.call("GET", "/v1/users/bobold");
    expect(profile.body.moved_to).toBe("adanew@m.test");
    // And the new account, on its own server, says where the person came from.
    expect((await carol.call("GET", "/v1/users/adanew")).body.moved_from).toBe("bobold@n.test");
  });

  it("the moved account federates no new posts", async () => {
    const before = await one(A, "select count(*) as n from notes where user_id = ?", bobOnA);
    const made = await bob.call("POST", "/v1/notes", { label: "later", content: "<p>After the move</p>" });
    expect(made.status).toBeLessThan(300);
    await drain(both);
    expect(await one(A, "select count(*) as n from notes where user_id = ?", bobOnA)).toBe(before);
    expect((await dan.call("GET", `/v1/notes/bobold/${made.body.note.id}`)).status).toBe(200);
  });

  it("a Move whose target does not list the old account is not followed", async () => {
    const ed = await person(B, "edwander");
    const gina = await person(A, "ginafan");
    const edOnA = (await gina.call("GET", "/v1/users/edwander@n.test")).body.id;
    expect((await gina.call("POST", `/v1/follows/${edOnA}`)).status).toBe(200);
    await drain(both);
    const edUri = `${B.origin}/ap/users/${ed.id}`;
    const res = await signedPost(B, ed.id, `${A.origin}/ap/inbox`, {
      id: `${edUri}#moves/forged`,
      type: "Move",
      actor: edUri,
      object: edUri,
      target: `${A.origin}/ap/users/${carol.id}`,
    });
    expect(res.status).toBeLessThan(300);
    await drain(both);
    expect(await follows(A, gina.id, carol.id)).toBe(0);
    expect(await follows(A, gina.id, edOnA)).toBe(1);
    expect(await one(A, "select count(*) as n from account_moves where user_id = ?", edOnA)).toBe(0);
  });
});
