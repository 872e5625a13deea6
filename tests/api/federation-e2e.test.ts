// Two NoteX instances federating through real HTTP requests (tests/fediverse.ts): a.test and
// b.test, each with its own database and queue, Fedify signing and verifying every delivery.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, drain, instance, type Person, person } from "../fediverse";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on a.test
let bob: Person; // on b.test
let adaOnB = 0; // ada's id on b.test
let bobOnA = 0; // bob's id on a.test

beforeAll(async () => {
  // Fedify is a dynamic import in the worker: the first one compiles it (seconds, once per run).
  unroute = await connect(both);
  ada = await person(A, "adalove");
  bob = await person(B, "bobby");
}, 120_000);
afterAll(() => unroute());

const count = (inst: typeof A, sql: string, ...args: unknown[]) =>
  inst.env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

describe("two NoteX instances", () => {
  it("bob finds ada by handle, follows her, and she gets the follow (Accept back)", async () => {
    const found = await bob.call("GET", "/v1/users/adalove@a.test");
    expect(found.status).toBe(200);
    adaOnB = found.body.id;
    expect(found.body.username).toBe("adalove@a.test");
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    const followers = await ada.call("GET", `/v1/follows/${ada.id}/followers`);
    const names = followers.body.users.map((u: { username: string }) => u.username);
    expect(names).toContain("bobby@b.test");
    bobOnA = followers.body.users.find((u: { username: string }) => u.username === "bobby@b.test").id;
    expect(
      await count(A, "select count(*) as n from follows where follower_id = ? and followee_id = ?", bobOnA, ada.id),
    ).toBe(1);
  });

  it("ada follows bob back", async () => {
    expect((await ada.call("GET", "/v1/users/bobby@b.test")).body.id).toBe(bobOnA);
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
    await drain(both);
    const adaHere = await count(
      B,
      "select user_id as n from remote_actors where uri = ?",
      `http://a.test/ap/users/${ada.id}`,
    );
    expect(adaHere).toBe(adaOnB);
    expect(
      await count(B, "select count(*) as n from follows where follower_id = ? and followee_id = ?", adaOnB, bob.id),
    ).toBe(1);
  });

  let noteOnA = 0;
  let noteOnB = 0;
  it("ada's post reaches bob's Following feed", async () => {
    const made = await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Hello from a.test #fediverse</p>" });
    expect(made.status).toBe(201);
    noteOnA = made.body.note.id;
    await drain(both);
    const feed = await bob.call("GET", "/v1/feeds");
    expect(feed.status).toBe(200);
    const item = feed.body.notes.find((n: { content: string }) => n.content.includes("Hello from a.test"));
    expect(item).toBeTruthy();
    noteOnB = item.id;
  });

  it("bob's reply shows in ada's thread, with a notification", async () => {
    const reply = await bob.call("POST", "/v1/replies", { parent: -noteOnB, content: "<p>Hi ada, from b.test</p>" });
    expect(reply.status).toBe(201);
    await drain(both);
    const replies = await ada.call("GET", `/v1/replies?pid=${-noteOnA}`);
    expect(replies.body.replies.map((r: { content: string }) => r.content).join()).toContain("Hi ada, from b.test");
    const notes = await ada.call("GET", "/v1/notifications");
    expect(JSON.stringify(notes.body)).toContain("bobby@b.test");
    expect(await count(A, "select repnum as n from notes where id = ?", noteOnA)).toBe(1);
  });

  it("bob's like and boost count on ada's note", async () => {
    expect((await bob.call("POST", `/v1/likes/${noteOnB}?t=note`)).status).toBe(200);
    expect((await bob.call("POST", "/v1/renotes", { renote_id: noteOnB, content: "" })).status).toBe(201);
    await drain(both);
    expect(await count(A, "select likenum as n from notes where id = ?", noteOnA)).toBe(1);
    expect(await count(A, "select renum as n from notes where id = ?", noteOnA)).toBe(1);
    // Undone, both counts go back.
    expect((await bob.call("DELETE", `/v1/likes/${noteOnB}?t=note`)).status).toBe(200);
    expect((await bob.call("DELETE", `/v1/renotes/${noteOnB}`)).status).toBe(200);
    await drain(both);
    expect(await count(A, "select likenum as n from notes where id = ?", noteOnA)).toBe(0);
    expect(await count(A, "select renum as n from notes where id = ?", noteOnA)).toBe(0);
  });

  it("ada's edit reaches bob's copy, and her delete removes it", async () => {
    const edited = await ada.call("PATCH", "/v1/notes", {
      id: noteOnA,
      label: "work",
      content: "<p>Edited on a.test</p>",
    });
    expect(edited.status).toBe(200);
    await drain(both);
    expect((await bob.call("GET", `/v1/notes/${noteOnB}`)).body.content).toContain("Edited on a.test");
    expect((await ada.call("DELETE", `/v1/notes/${noteOnA}`)).status).toBe(200);
    await drain(both);
    // Gone as its author's own delete leaves a note: 410 "This note was deleted".
    expect((await bob.call("GET", `/v1/notes/${noteOnB}`)).status).toBe(410);
  });

  it("an unsigned delivery is refused with 401 and changes nothing", async () => {
    const before = await count(A, "select count(*) as n from notes");
    const create = {
      "@context": "https://www.w3.org/ns/activitystreams",
      id: "http://b.test/ap/notes/999#create",
      type: "Create",
      actor: `http://b.test/ap/users/${bob.id}`,
      object: {
        id: "http://b.test/ap/notes/999",
        type: "Note",
        attributedTo: `http://b.test/ap/users/${bob.id}`,
        content: "<p>forged</p>",
        to: "https://www.w3.org/ns/activitystreams#Public",
      },
    };
    for (const path of ["/ap/inbox", `/ap/users/${ada.id}/inbox`]) {
      const res = await A.fetch(
        new Request(`${A.origin}${path}`, {
          method: "POST",
          headers: { "content-type": "application/activity+json" },
          body: JSON.stringify(create),
        }),
      );
      expect(res.status).toBe(401);
    }
    await drain(both);
    expect(await count(A, "select count(*) as n from notes")).toBe(before);
  });

  it("bob unfollows ada, and she loses the follower", async () => {
    expect((await bob.call("DELETE", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(
      await count(A, "select count(*) as n from follows where follower_id = ? and followee_id = ?", bobOnA, ada.id),
    ).toBe(0);
  });
});
