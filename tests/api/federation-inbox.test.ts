// What an inbox refuses or takes once: forged signatures, objects claiming another origin,
// repeated activities, follows across a block, oversized bodies; and what production refuses to
// fetch. Two instances as in federation-e2e.test.ts (tests/fediverse.ts), on their own hosts.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, instance, migrate, one, type Person, person, routeFetch, signedPost } from "../fediverse";

const A = instance("c.test", env.DB);
const B = instance("d.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person;
let bob: Person;
let bobOnA = 0;
let noteOnA = 0;

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch(both);
  ada = await person(A, "adainbox");
  bob = await person(B, "bobinbox");
  // Ada knows bob (as anyone would after looking him up), and has a note he can like.
  bobOnA = (await ada.call("GET", "/v1/users/bobinbox@d.test")).body.id;
  noteOnA = (await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Inbox tests</p>" })).body.note.id;
  await drain(both);
}, 120_000);
afterAll(() => unroute());

const bobUri = () => `${B.origin}/ap/users/${bob.id}`;
const likeOf = (id: string) => ({
  id: `${bobUri()}#likes/${id}`,
  type: "Like",
  actor: bobUri(),
  object: `${A.origin}/ap/notes/${noteOnA}`,
});

describe("federation inbox", () => {
  it("a delivery signed with a key that is not the actor's is refused with 401 and changes nothing", async () => {
    const forger = (await crypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["sign", "verify"],
    )) as CryptoKeyPair;
    const res = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, likeOf("forged"), forger.privateKey);
    expect(res.status).toBe(401);
    await drain(both);
    expect(await one(A, "select likenum as n from notes where id = ?", noteOnA)).toBe(0);
  });

  it("the same Like delivered twice counts once", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await signedPost(B, bob.id, `${A.origin}/ap/users/${ada.id}/inbox`, likeOf("twice"));
      expect(res.status).toBeLessThan(300);
      await drain(both);
    }
    expect(await one(A, "select likenum as n from notes where id = ?", noteOnA)).toBe(1);
  });

  it("a signed Create whose Note claims another server's id changes nothing", async () => {
    const before = await one(A, "select count(*) as n from notes");
    const note = {
      id: `${A.origin}/ap/notes/999999`,
      type: "Note",
      attributedTo: bobUri(),
      content: "<p>I claim to be from c.test</p>",
      to: "https://www.w3.org/ns/activitystreams#Public",
      tag: [{ type: "Mention", href: `${A.origin}/ap/users/${ada.id}` }],
    };
    const res = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, {
      id: `${bobUri()}#create-cross`,
      type: "Create",
      actor: bobUri(),
      object: note,
    });
    expect(res.status).toBeLessThan(500);
    await drain(both);
    expect(await one(A, "select count(*) as n from notes")).toBe(before);
    expect(await one(A, "select count(*) as n from remote_objects where uri = ?", note.id)).toBe(0);
  });

  it("a follow from someone the person blocked is answered with Reject, and no follow stands on either side", async () => {
    expect((await ada.call("POST", `/v1/blocks/${bobOnA}`)).status).toBeLessThan(300);
    const adaOnB = (await bob.call("GET", "/v1/users/adainbox@c.test")).body.id;
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(
      await one(A, "select count(*) as n from follows where follower_id = ? and followee_id = ?", bobOnA, ada.id),
    ).toBe(0);
    expect(
      await one(B, "select count(*) as n from follows where follower_id = ? and followee_id = ?", bob.id, adaOnB),
    ).toBe(0);
  });

  it("an inbound body over 1 MB is refused with 413", async () => {
    const res = await A.fetch(
      new Request(`${A.origin}/ap/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: "x".repeat(1_000_001),
      }),
    );
    expect(res.status).toBe(413);
  });

  it("outside APP_ENV=local nothing but https is fetched, and private addresses are refused", async () => {
    const { federationFor } = await import("../../worker/features/federation/federation");
    const { fetchable } = await import("../../worker/features/federation/lookup");
    const prod = { ...A.env, APP_ENV: "production", APP_ORIGIN: "https://notex.test" };
    const ctx = (await federationFor(prod)).createContext(new URL("https://notex.test"), { env: prod });
    await expect(ctx.documentLoader(`${B.origin}/ap/users/${bob.id}`)).rejects.toThrow(/https/);
    await expect(ctx.documentLoader("https://127.0.0.1/actor")).rejects.toThrow();
    expect(fetchable(prod, new URL("https://10.0.0.1/.well-known/webfinger"))).toBe(false);
    expect(fetchable(prod, new URL("http://mastodon.example/.well-known/webfinger"))).toBe(false);
    expect(fetchable(prod, new URL("https://mastodon.example/.well-known/webfinger"))).toBe(true);
    expect(fetchable(A.env, new URL("http://127.0.0.1:8788/.well-known/webfinger"))).toBe(true);
  });
});
