// @name@host in a note: someone not stored here yet is found on their server by the queue consumer
// (never in the author's request), linked to that person's page here, and delivered to their inbox
// with a Mention tag, which notifies them there. The same for a Mastodon app's status. A local
// @name keeps working beside it.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appToken, caller, connect, drain, instance, type Person, person } from "../fediverse";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on a.test
let cyd: Person; // on a.test
let bob: Person; // on b.test
let dee: Person; // on b.test, mentioned from a Mastodon app

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adamention");
  cyd = await person(A, "cydmention");
  bob = await person(B, "bobmention");
  dee = await person(B, "deemention");
}, 120_000);
afterAll(() => unroute());

const mentionsOf = async (p: Person) =>
  ((await p.call("GET", "/v1/notifications?page=1")).body.notis ?? []).filter(
    (n: { action: string }) => n.action === "mention",
  );

describe("mentions of people on another server", () => {
  let noteId = 0;
  let stored = "";
  it("a note naming @bob@b.test, unknown here, finds him in the queue, links him and reaches him with a Mention", async () => {
    const made = await ada.call("POST", "/v1/notes", {
      label: "work",
      content: "<p>Hello @bobmention@b.test, meet @cydmention. Not @nobody_there@b.test.</p>",
    });
    expect(made.status).toBe(201);
    noteId = made.body.note.id;
    // The author's request asked no other server: bob is not stored yet, his handle is still text.
    expect((await ada.call("GET", `/v1/notes/${noteId}`)).body.content).not.toContain("/@bobmention");
    expect(await A.env.DB.prepare("select id from users where username = 'bobmention@b.test'").first()).toBeNull();
    await drain(both);
    stored = (await ada.call("GET", `/v1/notes/${noteId}`)).body.content;
    expect(stored).toContain('<a href="/@bobmention@b.test" class="mention">@bobmention@b.test</a>');
    expect(stored).toContain('<a href="/cydmention" class="mention">@cydmention</a>');
    // Someone who cannot be found stays text.
    expect(stored).toContain("@nobody_there@b.test");
    expect(stored).not.toContain("/@nobody_there");
    // The local mention notifies here; bob is told by his own server.
    expect(await mentionsOf(cyd)).toHaveLength(1);
    // bob follows no one on a.test: only the Mention tag makes b.test keep the note and notify him.
    const mine = await mentionsOf(bob);
    expect(mine).toHaveLength(1);
    expect(JSON.stringify(mine[0])).toContain("adamention@a.test");
  });

  it("saving the note unchanged keeps its links as they were", async () => {
    const res = await ada.call("PATCH", "/v1/notes", { id: noteId, label: "work", content: stored });
    expect(res.status).toBe(200);
    expect((await ada.call("GET", `/v1/notes/${noteId}`)).body.content).toBe(stored);
    await drain(both);
    expect(await mentionsOf(bob)).toHaveLength(1);
  });

  it("a reply naming someone elsewhere reaches them too", async () => {
    const reply = await cyd.call("POST", "/v1/replies", {
      parent: -noteId,
      content: "<p>Welcome @bobmention@b.test</p>",
    });
    expect(reply.status).toBe(201);
    await drain(both);
    expect(await mentionsOf(bob)).toHaveLength(2);
  });

  it("a Mastodon app's status naming someone unknown here reaches them the same way", async () => {
    const token = await appToken(A, ada);
    const posted = await caller(A)(
      "POST",
      "/api/v1/statuses",
      { status: "Ping @deemention@b.test from an app" },
      token,
    );
    expect(posted.status).toBe(200);
    expect(posted.body.content).not.toContain("/@deemention");
    await drain(both);
    const mine = await mentionsOf(dee);
    expect(mine).toHaveLength(1);
    expect(JSON.stringify(mine[0])).toContain("adamention@a.test");
    const status = await caller(A)("GET", `/api/v1/statuses/${posted.body.id}`, undefined, token);
    // Links in an app's content are absolute, as Mastodon's.
    expect(status.body.content).toContain('href="http://a.test/@deemention@b.test"');
  });
});
