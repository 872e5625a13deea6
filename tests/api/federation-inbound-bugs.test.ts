// Inbound federation's reader bugs, between two NoteX instances (tests/fediverse.ts): a reply this
// server refuses (its author blocked by the post's) is a permanent refusal, acknowledged at once
// instead of retried eight times; older posts read in from a person's outbox notify nobody, not
// even someone who followed them before the read ran; an account re-created on its server (a new
// actor URI under the same name@host) takes the handle instead of failing to be stored forever.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, drain, instance, noteBy, one, type Person, person, signedPost } from "../fediverse";

const A = instance("ib.test", env.DB);
const B = instance("ib-b.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on ib.test
let bob: Person; // on ib-b.test

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adainb");
  bob = await person(B, "bobinb");
}, 120_000);
afterAll(() => unroute());

describe("inbound federation", () => {
  it("a reply refused here (its author blocked) is not retried", async () => {
    const note = await noteBy(ada, "no replies from bob");
    const bobOnA = (await ada.call("GET", `/v1/users/bobinb@${B.host}`)).body.id as number;
    await A.env.DB.prepare("insert into blocks (blocker_id, blocked_id) values (?, ?)").bind(ada.id, bobOnA).run();
    const actor = `${B.origin}/ap/users/${bob.id}`;
    const reply = {
      id: `${actor}#creates/1`,
      type: "Create",
      actor,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
      object: {
        id: `${B.origin}/ap/notes/900001`,
        type: "Note",
        attributedTo: actor,
        inReplyTo: `${A.origin}/ap/notes/${note}`,
        content: "<p>but I must</p>",
        to: ["https://www.w3.org/ns/activitystreams#Public"],
      },
    };
    expect((await signedPost(B, bob.id, `${A.origin}/ap/inbox`, reply)).status).toBeLessThan(300);
    // drain() fails the test on any message asked to retry.
    await drain(both);
    expect(await one(A, "select count(*) n from replies where user_id = ?", bobOnA)).toBe(0);
    expect(await one(A, "select repnum n from notes where id = ?", note)).toBe(0);
  });

  it("older posts read in from an outbox notify nobody, even who followed before the read", async () => {
    const cy = await person(A, "cyinb");
    await noteBy(cy, "an older post");
    await drain(both);
    const cyOnB = (await bob.call("GET", `/v1/users/cyinb@${A.host}`)).body.id as number;
    expect((await bob.call("POST", `/v1/follows/${cyOnB}`)).status).toBe(200);
    await drain(both);
    expect(await one(B, "select count(*) n from notes where user_id = ?", cyOnB)).toBe(1);
    expect(await one(B, "select count(*) n from notifications where user_id = ? and actor_id = ?", bob.id, cyOnB)).toBe(
      0,
    );
  });

  it("an account re-created elsewhere (a new actor, the same name@host) takes the handle; the old row keeps its data", async () => {
    const adaOnB = (await bob.call("GET", `/v1/users/adainb@${A.host}`)).body.id as number;
    const first = await person(B, "dupinb");
    expect((await first.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    const firstOnA = (await ada.call("GET", `/v1/users/dupinb@${B.host}`)).body.id as number;
    // Their server deletes the account and someone signs up under the same name: a new actor URI.
    await B.env.DB.prepare("update users set username = 'dupinbgone', email = 'gone@ib-b.test' where id = ?")
      .bind(first.id)
      .run();
    const again = await person(B, "dupinb");
    expect((await again.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    const againUri = `${B.origin}/ap/users/${again.id}`;
    const againOnA = await one(A, "select user_id n from remote_actors where uri = ?", againUri);
    expect(againOnA).toBeGreaterThan(0);
    expect(againOnA).not.toBe(firstOnA);
    expect((await ada.call("GET", `/v1/users/dupinb@${B.host}`)).body.id).toBe(againOnA);
    // The first account's row stays, under a name no actor can claim, with its follow.
    const moved = await A.env.DB.prepare("select username from users where id = ?")
      .bind(firstOnA)
      .first<{ username: string }>();
    expect(moved?.username).toBe(`dupinb~${firstOnA}@${B.host}`);
    for (const who of [firstOnA, againOnA])
      expect(
        await one(A, "select count(*) n from follows where follower_id = ? and followee_id = ?", who, ada.id),
      ).toBe(1);
  });
});
