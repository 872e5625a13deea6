// An account's life federates both ways between two NoteX instances (tests/fediverse.ts): a
// profile edit reaches the servers that know the person (Update(Person)); deleting an account
// sends Delete(Person), signed with the keys kept for it after its rows are gone, and its actor
// answers 410; the server that hears it removes that person's copy, posts, replies, likes and
// follows with every counter exact (the recount audit). A Delete(Person) that can no longer be
// verified (the actor's document already answers 410) is taken only as the actor's own end.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { connect, drain, instance, type Person, person, signedPost } from "../fediverse";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B, env.SESSIONS_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on a.test
let cy: Person; // on a.test
let bob: Person; // on b.test, deletes his account
let bobOnA = 0;
let adaNote = 0;

const count = (sql: string, ...args: unknown[]) =>
  A.env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

const asActivity = (path: string) =>
  B.fetch(new Request(`${B.origin}${path}`, { headers: { accept: "application/activity+json" } }));

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adalife");
  cy = await person(A, "cylife");
  bob = await person(B, "boblife");
}, 120_000);
afterAll(() => unroute());

describe("an account's lifecycle across servers", () => {
  it("a profile edit reaches the servers that know the person (Update(Person))", async () => {
    bobOnA = (await ada.call("GET", "/v1/users/boblife@b.test")).body.id;
    const adaOnB = (await bob.call("GET", "/v1/users/adalife@a.test")).body.id;
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
    await drain(both);
    expect((await ada.call("PATCH", "/v1/users", { name: "Ada Lifelong", descr: "Now with a bio" })).status).toBe(200);
    expect(A.queue.items).toContainEqual(expect.objectContaining({ notex: "account", op: "update", uid: ada.id }));
    await drain(both);
    const copy = await bob.call("GET", `/v1/users/adalife@a.test`);
    expect(copy.body.fullname).toBe("Ada Lifelong");
    expect(copy.body.descr).toBe("Now with a bio");
  });

  it("a deleted account says Delete(Person) with its kept keys, answers 410, and its copy goes with exact counters", async () => {
    // bob's traces on a.test: a post ada follows in, a reply and a like on ada's note; cy likes
    // and answers bob's post.
    adaNote = (await ada.call("POST", "/v1/notes", { label: "idea", content: "<p>ada's note</p>" })).body.note.id;
    await drain(both);
    const noteOnB = (await bob.call("GET", "/v1/feeds")).body.notes.find((n: { content: string }) =>
      n.content.includes("ada's note"),
    ).id;
    expect((await bob.call("POST", "/v1/replies", { parent: -noteOnB, content: "<p>bob answers</p>" })).status).toBe(
      201,
    );
    expect((await bob.call("POST", `/v1/likes/${noteOnB}`)).status).toBe(200);
    expect((await bob.call("POST", "/v1/notes", { label: "idea", content: "<p>bob's own post</p>" })).status).toBe(201);
    await drain(both);
    const bobsPost = (await ada.call("GET", "/v1/feeds")).body.notes.find((n: { content: string }) =>
      n.content.includes("bob's own post"),
    ).id;
    expect((await cy.call("POST", `/v1/likes/${bobsPost}`)).status).toBe(200);
    expect((await cy.call("POST", "/v1/replies", { parent: -bobsPost, content: "<p>cy answers</p>" })).status).toBe(
      201,
    );
    await drain(both);
    const before = (await ada.call("GET", `/v1/notes/adalife/${adaNote}`)).body;
    expect([before.likenum, before.repnum]).toEqual([1, 1]);
    expect(await count("select count(*) as n from notes where user_id = ?", bobOnA)).toBe(1);
    expect(await wrongCounters()).toEqual([]);
    const adaBefore = (await ada.call("GET", "/v1/users/adalife")).body.stats;

    expect((await bob.call("DELETE", "/v1/users", { password: "secret123" })).status).toBe(200);
    expect(B.queue.items).toContainEqual(expect.objectContaining({ notex: "account", op: "delete", uid: bob.id }));
    // The actor is gone at once; the keys and the servers to tell are kept for the farewell.
    expect((await asActivity(`/ap/users/${bob.id}`)).status).toBe(410);
    await drain(both);

    expect(await count("select count(*) as n from users where id = ?", bobOnA)).toBe(0);
    for (const table of ["notes", "replies", "likes", "remote_objects", "remote_media"])
      expect(await count(`select count(*) as n from ${table} where user_id = ?`, bobOnA), table).toBe(0);
    expect(await count("select count(*) as n from follows where follower_id = ?1 or followee_id = ?1", bobOnA)).toBe(0);
    // cy's like and reply went with bob's post.
    expect(await count("select count(*) as n from replies where user_id = ?", cy.id)).toBe(0);
    const afterRes = await ada.call("GET", `/v1/notes/adalife/${adaNote}`);
    const after = afterRes.body;
    expect([after.likenum, after.repnum]).toEqual([0, 0]);
    const adaAfter = (await ada.call("GET", "/v1/users/adalife")).body.stats;
    expect(adaAfter.follower).toBe(adaBefore.follower - 1);
    expect(adaAfter.following).toBe(adaBefore.following - 1);
    expect(await wrongCounters()).toEqual([]);
    // The actor and its followers answer 410 Gone for good.
    expect((await asActivity(`/ap/users/${bob.id}`)).status).toBe(410);
    expect((await asActivity(`/ap/users/${bob.id}/followers`)).status).toBe(410);
  });

  it("a Delete(Person) that cannot be verified any more is taken only as the actor's own end", async () => {
    const { keyPairsOf } = await import("../../worker/features/federation/keys");
    const carol = await person(B, "carollife");
    const dave = await person(B, "davelife");
    const carolOnA = (await ada.call("GET", "/v1/users/carollife@b.test")).body.id;
    const daveOnA = (await ada.call("GET", "/v1/users/davelife@b.test")).body.id;
    expect([typeof carolOnA, typeof daveOnA]).toEqual(["number", "number"]);
    const [carolKey] = await keyPairsOf(B.env, B.env.DB, carol.id);
    const carolUri = `${B.origin}/ap/users/${carol.id}`;
    const daveUri = `${B.origin}/ap/users/${dave.id}`;
    // carol's account goes on b.test (no farewell reaches a.test here), and a.test forgets what it cached of her.
    expect((await carol.call("DELETE", "/v1/users", { password: "secret123" })).status).toBe(200);
    B.queue.items.splice(0);
    await A.env.DB.prepare("delete from fed_kv where key like ?").bind(`%${carolUri}%`).run();
    const inbox = `${A.origin}/ap/inbox`;
    const del = (actor: string, object: string) => ({ id: `${actor}#delete-${object}`, type: "Delete", actor, object });

    // Signed with carol's gone key but naming dave (alive), or deleting someone else: refused.
    expect((await signedPost(B, carol.id, inbox, del(daveUri, daveUri), carolKey.privateKey)).status).toBe(401);
    expect((await signedPost(B, carol.id, inbox, del(carolUri, daveUri), carolKey.privateKey)).status).toBe(401);
    // dave's own key, wrong signature (his document still answers): refused.
    expect((await signedPost(B, dave.id, inbox, del(daveUri, daveUri), carolKey.privateKey)).status).toBe(401);
    expect(await count("select count(*) as n from users where id in (?, ?)", carolOnA, daveOnA)).toBe(2);

    // Her own end, signed with the key her gone document no longer shows: taken.
    const res = await signedPost(B, carol.id, inbox, del(carolUri, carolUri), carolKey.privateKey);
    expect(res.status).toBe(202);
    expect(await count("select count(*) as n from users where id = ?", carolOnA)).toBe(0);
    expect(await count("select count(*) as n from users where id = ?", daveOnA)).toBe(1);
    expect(await wrongCounters()).toEqual([]);
  });
});
