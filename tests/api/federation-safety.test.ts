// Safety across servers: blocks and mutes of people elsewhere, a moderator's domain block (nothing
// in, nothing out, follows cut, people gone from timelines, lifted again) and reports forwarded as
// a Flag. Two NoteX instances as in federation-e2e.test.ts (tests/fediverse.ts), on their own hosts.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, drain, instance, one, type Person, person, signedPost } from "../fediverse";

const A = instance("g.test", env.DB);
const B = instance("h.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on g.test
let bob: Person; // on h.test
let mod: Person; // a moderator on g.test
let adaOnB = 0;
let bobOnA = 0;

const follows = (inst: typeof A, a: number, b: number) =>
  one(inst, "select count(*) as n from follows where follower_id = ? and followee_id = ?", a, b);
const blocked = (inst: typeof A, a: number, b: number) =>
  one(inst, "select count(*) as n from blocks where blocker_id = ? and blocked_id = ?", a, b);

/** Ada and bob follow each other (each on their own server). */
async function mutualFollow() {
  expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
  expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
  await drain(both);
  expect(await follows(A, bobOnA, ada.id)).toBe(1);
  expect(await follows(B, adaOnB, bob.id)).toBe(1);
}

beforeAll(async () => {
  unroute = await connect(both);
  ada = await person(A, "adasafe");
  bob = await person(B, "bobsafe");
  mod = await person(A, "modsafe");
  await A.env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
  adaOnB = (await bob.call("GET", "/v1/users/adasafe@g.test")).body.id;
  bobOnA = (await ada.call("GET", "/v1/users/bobsafe@h.test")).body.id;
}, 120_000);
afterAll(() => unroute());

describe("blocks and mutes of people elsewhere", () => {
  it("ada's block of bob is sent as a Block: his server cuts the follows both ways and he cannot follow her again", async () => {
    await mutualFollow();
    expect((await ada.call("POST", `/v1/blocks/${bobOnA}`)).status).toBe(200);
    await drain(both);
    expect(await follows(A, bobOnA, ada.id)).toBe(0);
    expect(await follows(A, ada.id, bobOnA)).toBe(0);
    // On h.test: the block is stored as ada's, and the follows are gone there too.
    expect(await blocked(B, adaOnB, bob.id)).toBe(1);
    expect(await follows(B, adaOnB, bob.id)).toBe(0);
    expect(await follows(B, bob.id, adaOnB)).toBe(0);
    const again = await bob.call("POST", `/v1/follows/${adaOnB}`);
    expect(again.status).toBe(403);
    expect(again.body.message).toBe("This user has blocked you.");
  });

  it("lifting it sends Undo(Block): his server forgets the block and he can follow her again", async () => {
    expect((await ada.call("DELETE", `/v1/blocks/${bobOnA}`)).status).toBe(200);
    await drain(both);
    expect(await blocked(B, adaOnB, bob.id)).toBe(0);
    await mutualFollow();
  });

  it("a Block from bob's server is taken here as his: follows cut both ways, ada cannot follow him, his Undo lifts it", async () => {
    expect((await bob.call("POST", `/v1/blocks/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(await blocked(A, bobOnA, ada.id)).toBe(1);
    expect(await follows(A, bobOnA, ada.id)).toBe(0);
    expect(await follows(A, ada.id, bobOnA)).toBe(0);
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(403);
    expect((await bob.call("DELETE", `/v1/blocks/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(await blocked(A, bobOnA, ada.id)).toBe(0);
    await mutualFollow();
  });

  it("muting bob takes his posts out of ada's Following feed (and unmuting brings them back)", async () => {
    expect(
      (await bob.call("POST", "/v1/notes", { label: "work", content: "<p>Muted words from h.test</p>" })).status,
    ).toBe(201);
    await drain(both);
    const feedHas = async () =>
      JSON.stringify((await ada.call("GET", "/v1/feeds")).body).includes("Muted words from h.test");
    expect(await feedHas()).toBe(true);
    expect((await ada.call("POST", `/v1/mutes/${bobOnA}`)).status).toBe(200);
    expect(await feedHas()).toBe(false);
    expect((await ada.call("DELETE", `/v1/mutes/${bobOnA}`)).status).toBe(200);
    expect(await feedHas()).toBe(true);
  });
});

describe("a report forwarded to the content's server", () => {
  it("without the box ticked, nothing leaves; ticked, a Flag from the instance actor reaches the author's server's moderators", async () => {
    const made = await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Reported across servers</p>" });
    const noteOnA = made.body.note.id;
    await drain(both);
    const feed = (await bob.call("GET", "/v1/feeds")).body.notes as { id: number; content: string }[];
    const noteOnB = feed.find((n) => n.content.includes("Reported across servers"))?.id;
    expect(noteOnB).toBeTruthy();
    const reportsOnA = () => one(A, "select count(*) as n from reports where kind = 'note' and target_id = ?", noteOnA);

    expect((await bob.call("POST", "/v1/reports", { nid: noteOnB, kind: 1, t: "note" })).status).toBe(201);
    await drain(both);
    expect(await reportsOnA()).toBe(0);

    const other = await person(B, "carolsafe");
    expect(
      (
        await other.call("POST", "/v1/reports", {
          nid: noteOnB,
          kind: 1,
          t: "note",
          forward: true,
          note: "Posts every hour",
        })
      ).status,
    ).toBe(201);
    await drain(both);
    expect(await reportsOnA()).toBe(1);
    // Reported by h.test itself (its instance actor), never by the person who reported.
    const reporter = await A.env.DB.prepare(
      "select u.username, r.note from reports r join users u on u.id = r.user_id where r.kind = 'note' and r.target_id = ?",
    )
      .bind(noteOnA)
      .first<{ username: string; note: string }>();
    expect(reporter).toEqual({ username: "h.test@h.test", note: "Posts every hour" });
    const queue = await mod.call("GET", "/v1/moderation/reports");
    const group = queue.body.reports.find((g: { kind: string; id: number }) => g.kind === "note" && g.id === noteOnA);
    expect(group.kinds).toEqual([{ id: 1, name: "Spam" }]);
  });
});

describe("a moderator's domain block", () => {
  let bobNoteOnA = 0;
  it("cuts the follows with that server's people and takes them out of timelines", async () => {
    expect(await follows(A, ada.id, bobOnA)).toBe(1);
    const counts = () =>
      A.env.DB.prepare("select follower_num as followers, following_num as following from users where id = ?")
        .bind(ada.id)
        .first<{ followers: number; following: number }>();
    const before = await counts();
    const feed = (await ada.call("GET", "/v1/feeds")).body.notes as { id: number; user: { id: number } }[];
    bobNoteOnA = feed.find((n) => n.user.id === bobOnA)?.id ?? 0;
    expect(bobNoteOnA).toBeGreaterThan(0);

    expect((await ada.call("POST", "/v1/moderation/domains", { domain: "h.test", reason: "spam" })).status).toBe(403);
    const res = await mod.call("POST", "/v1/moderation/domains", { domain: "https://H.test/", reason: "Spam server" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ domain: "h.test", blocked: true });
    expect((await mod.call("GET", "/v1/moderation/domains")).body.domains[0]).toMatchObject({
      domain: "h.test",
      reason: "Spam server",
      moderator: "modsafe",
    });

    expect(await follows(A, ada.id, bobOnA)).toBe(0);
    expect(await follows(A, bobOnA, ada.id)).toBe(0);
    expect(await counts()).toEqual({
      followers: (before?.followers ?? 0) - 1,
      following: (before?.following ?? 0) - 1,
    });
    // Blocked again: nothing changes (no second log row, the counters stay).
    expect((await mod.call("POST", "/v1/moderation/domains", { domain: "h.test", reason: "Again" })).status).toBe(200);
    const logged = await A.env.DB.prepare(
      "select count(*) n from moderation_log where action = 'block_domain' and reason like 'h.test:%'",
    ).first<{ n: number }>();
    expect(logged?.n).toBe(1);
    expect(await counts()).toEqual({
      followers: (before?.followers ?? 0) - 1,
      following: (before?.following ?? 0) - 1,
    });
    const feedNow = (await ada.call("GET", "/v1/feeds")).body.notes as { user: { id: number } }[];
    expect(feedNow.some((n) => n.user.id === bobOnA)).toBe(false);
    expect((await ada.call("GET", `/v1/notes/${bobNoteOnA}`)).status).toBe(404);
  });

  it("accepts nothing from it: its signed deliveries get 403 and change nothing, its people are not looked up", async () => {
    const like = {
      id: `${B.origin}/ap/users/${bob.id}#likes/blocked`,
      type: "Like",
      actor: `${B.origin}/ap/users/${bob.id}`,
      object: `${A.origin}/ap/notes/1`,
    };
    const res = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, like);
    expect(res.status).toBe(403);
    // Bob's follow request from h.test is refused at the door too: no follow stands here.
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(await follows(A, bobOnA, ada.id)).toBe(0);
    await person(B, "danasafe");
    expect((await ada.call("GET", "/v1/users/danasafe@h.test")).status).toBe(404);
  });

  it("delivers nothing to it: the consumer drops what was addressed there", async () => {
    // Ada's block of bob would be a Block to h.test: it never arrives.
    expect((await ada.call("POST", `/v1/blocks/${bobOnA}`)).status).toBe(200);
    await drain(both);
    expect(await blocked(B, adaOnB, bob.id)).toBe(0);
    expect((await ada.call("DELETE", `/v1/blocks/${bobOnA}`)).status).toBe(200);
    await drain(both);
  });

  it("a moderator lifts it: the people it suspended are back, deliveries are accepted again", async () => {
    expect((await mod.call("DELETE", "/v1/moderation/domains/h.test")).status).toBe(200);
    expect((await mod.call("DELETE", "/v1/moderation/domains/h.test")).status).toBe(404);
    expect((await ada.call("GET", `/v1/notes/${bobNoteOnA}`)).status).toBe(200);
    expect((await bob.call("DELETE", `/v1/follows/${adaOnB}`)).status).toBe(200);
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(await follows(A, bobOnA, ada.id)).toBe(1);
    const log = (await mod.call("GET", "/v1/moderation/log")).body.entries.map((e: { action: string }) => e.action);
    expect(log.slice(0, 2)).toEqual(["unblock_domain", "block_domain"]);
  });
});
