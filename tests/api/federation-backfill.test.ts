// A person elsewhere found here for the first time shows their recent public posts on their
// profile: the request only stores them and enqueues; the consumer reads their outbox's first page
// and keeps their own public posts (replies left out) without notifying anyone and without putting
// them in anyone's Following. Two NoteX instances (tests/fediverse.ts).
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, drain, instance, type Person, person } from "../fediverse";

const A = instance("k.test", env.DB);
const B = instance("m.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on k.test, with posts before anyone on m.test knows her
let bob: Person; // on m.test

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adaback");
  bob = await person(B, "bobback");
}, 120_000);
afterAll(() => unroute());

const texts = (notes: { content: string }[]) => notes.map((n) => n.content.replace(/<[^>]+>/g, ""));

describe("a remote profile's recent posts", () => {
  it("are read from the outbox after the first look-up, newest first, quietly and only once", async () => {
    for (const word of ["one", "two", "three"]) {
      expect(
        (await ada.call("POST", "/v1/notes", { label: "work", content: `<p>Older post ${word}</p>` })).status,
      ).toBe(201);
    }
    const first = (await ada.call("GET", `/v1/notes?uid=${ada.id}`)).body.notes[0].id;
    expect((await ada.call("POST", "/v1/replies", { parent: -first, content: "<p>A reply of hers</p>" })).status).toBe(
      201,
    );
    await drain(both);

    const found = await bob.call("GET", "/v1/users/adaback@k.test");
    expect(found.status).toBe(200);
    const adaOnB = found.body.id;
    // The look-up itself stored no post: the outbox is read by the consumer.
    expect((await bob.call("GET", `/v1/notes?uid=${adaOnB}`)).body.notes).toEqual([]);
    await drain(both);

    const shown = (await bob.call("GET", `/v1/notes?uid=${adaOnB}`)).body.notes;
    expect(texts(shown)).toEqual(["Older post three", "Older post two", "Older post one"]);
    // Old posts are not news: nobody is notified and bob's Following does not get them.
    expect((await bob.call("GET", "/v1/notifications?page=1")).body.notis ?? []).toEqual([]);
    expect(JSON.stringify((await bob.call("GET", "/v1/feeds")).body)).not.toContain("Older post");

    // Found again: no second read, nothing doubled.
    expect((await bob.call("GET", "/v1/users/adaback@k.test")).body.id).toBe(adaOnB);
    await drain(both);
    expect((await bob.call("GET", `/v1/notes?uid=${adaOnB}`)).body.notes).toHaveLength(3);
  });

  it("a server that fails to show the outbox leaves the profile empty, and the message is not retried", async () => {
    const cy = await person(A, "cyback");
    expect(
      (await cy.call("POST", "/v1/notes", { label: "work", content: "<p>Behind a closed outbox</p>" })).status,
    ).toBe(201);
    await drain(both);
    const routed = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
      new Request(input, init).url.endsWith("/outbox")
        ? new Response("no", { status: 500 })
        : routed(input, init)) as typeof fetch;
    try {
      const found = await bob.call("GET", "/v1/users/cyback@k.test");
      expect(found.status).toBe(200);
      await drain(both);
      expect((await bob.call("GET", `/v1/notes?uid=${found.body.id}`)).body.notes).toEqual([]);
    } finally {
      globalThis.fetch = routed;
    }
  });
});
