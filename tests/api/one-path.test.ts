// One path per action: each user-visible action runs through every door that offers it — /v1 with
// a session (which the pages' form actions call in process, app/lib/api.server.ts), /api with an
// app's token, and a signed inbox delivery for what a remote server does — and each door leaves
// the same rows, the same notifications and the same queued deliveries. Post, reply, edit, renote
// and quote, each through all its doors with the inbox's, are in one-path-posts.test.ts.
//
// Doors per action (the pages' door is /v1's):
//   like            /v1/likes          /api favourite      inbox Like
//   bookmark        /v1/bookmarks      /api bookmark
//   follow          /v1/follows        /api follow         inbox Follow
//   block           /v1/blocks         /api block          inbox Block
//   mute            /v1/mutes          /api mute
//   renote          /v1/renotes        /api reblog         inbox Announce, Undo
//   quote           /v1/renotes        /api quoted_status_id
//   post/edit       /v1/notes          /api statuses       inbox Create, Update
//   reply           /v1/replies        /api in_reply_to_id  inbox Create
//   delete          /v1/notes, replies /api DELETE status   inbox Delete  (one-path-delete.test.ts)
//   report          /v1/reports        /api reports         inbox Flag
//   profile edit    /v1/users          /api update_credentials
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doorsWorld } from "../doors-world";
import { drain, type Person, person, signedPost } from "../fediverse";

const world = doorsWorld("onepath", "op");
const { A, B, api, n, through } = world;
let me: Person; // acts, through each door
let ada: Person; // someone here
let far: Person; // stands for someone on another server (a remote_actors row)
let bea: Person; // someone on B
let adaNote: number;
let farNote: number;

/**
 * An act and its undo through /v1 (POST then DELETE `v1`) and through a Mastodon app (POST `app`/`verb`
 * then `app`/un`verb`): the app's two leave what /v1's two left. Answers /v1's.
 */
async function bothDoors<R>(v1: string, app: string, verb: string, rows: () => Promise<R>) {
  const made = await through(() => me.call("POST", v1), rows);
  const undone = await through(() => me.call("DELETE", v1), rows);
  const appMade = await through(() => api("POST", `${app}/${verb}`), rows);
  const appUndone = await through(() => api("POST", `${app}/un${verb}`), rows);
  expect([appMade, appUndone]).toEqual([made, undone]);
  return [made, undone];
}

beforeAll(async () => {
  ({ me, ada, far, bea, adaNote, farNote } = await world.open());
}, 120_000);
afterAll(() => world.close());

describe("like", () => {
  const rows = (id: number) => async () => ({
    likes: await n("select count(*) n from likes where user_id = ? and kind = 'note' and target_id = ?", me.id, id),
    likenum: await n("select likenum n from notes where id = ?", id),
    notices: await n(
      "select count(*) n from notifications where actor_id = ? and action = 'like' and target_id = ?",
      me.id,
      id,
    ),
  });
  for (const [where, target] of [
    ["here", () => adaNote],
    ["elsewhere", () => farNote],
  ] as const)
    it(`of a post ${where}: /v1 and a Mastodon app do the same`, async () => {
      const id = target();
      const [v1] = await bothDoors(`/v1/likes/${id}?t=note`, `/api/v1/statuses/${id}`, "favourite", rows(id));
      expect(v1.rows).toEqual({ likes: 1, likenum: 1, notices: 1 });
      // Only a post from another server is told of the like.
      expect(v1.queued.length).toBe(where === "here" ? 0 : 1);
    });
});

describe("bookmark", () => {
  it("/v1 and a Mastodon app write the same row and queue nothing", async () => {
    const rows = async () => ({
      marks: await n("select count(*) n from bookmarks where user_id = ? and target_id = ?", me.id, adaNote),
    });
    const [v1] = await bothDoors(`/v1/bookmarks/${adaNote}?t=note`, `/api/v1/statuses/${adaNote}`, "bookmark", rows);
    expect(v1).toEqual({ queued: [], rows: { marks: 1 } });
  });
});

describe("follow", () => {
  const rows = (uid: number) => async () => ({
    follows: await n("select count(*) n from follows where follower_id = ? and followee_id = ?", me.id, uid),
    followers: await n("select follower_num n from users where id = ?", uid),
    notices: await n(
      "select count(*) n from notifications where actor_id = ? and user_id = ? and action = 'follow'",
      me.id,
      uid,
    ),
  });
  for (const [where, target] of [
    ["here", () => ada],
    ["elsewhere", () => far],
  ] as const)
    it(`of someone ${where}: /v1 and a Mastodon app do the same`, async () => {
      const uid = target().id;
      const [v1, v1Undo] = await bothDoors(`/v1/follows/${uid}`, `/api/v1/accounts/${uid}`, "follow", rows(uid));
      expect(v1.rows.follows).toBe(1);
      expect([v1.queued.length, v1Undo.queued.length]).toEqual(where === "here" ? [0, 0] : [1, 1]);
    });
});

describe("block and mute", () => {
  const rows = (uid: number) => async () => ({
    blocks: await n("select count(*) n from blocks where blocker_id = ? and blocked_id = ?", me.id, uid),
    mutes: await n("select count(*) n from mutes where muter_id = ? and muted_id = ?", me.id, uid),
  });
  for (const [where, target] of [
    ["here", () => ada],
    ["elsewhere", () => far],
  ] as const) {
    it(`a block of someone ${where}: /v1 and a Mastodon app do the same`, async () => {
      const uid = target().id;
      const [v1, v1Undo] = await bothDoors(`/v1/blocks/${uid}`, `/api/v1/accounts/${uid}`, "block", rows(uid));
      expect(v1.rows.blocks).toBe(1);
      // Only the blocked person's server is told (Block, then Undo(Block)).
      expect([v1.queued.length, v1Undo.queued.length]).toEqual(where === "here" ? [0, 0] : [1, 1]);
    });

    it(`a mute of someone ${where}: /v1 and a Mastodon app do the same, and nothing is told`, async () => {
      const uid = target().id;
      const [v1] = await bothDoors(`/v1/mutes/${uid}`, `/api/v1/accounts/${uid}`, "mute", rows(uid));
      expect(v1).toEqual({ queued: [], rows: { blocks: 0, mutes: 1 } });
    });
  }
});

describe("posts and replies", () => {
  const shape = (queued: unknown[]) =>
    queued.map((m) => {
      const { id: _id, ...rest } = m as { id?: number };
      return rest;
    });

  it("post, edit and delete queue the same through /v1 and a Mastodon app", async () => {
    const v1 = await me.call("POST", "/v1/notes", { label: "note", content: "<p>one</p>" });
    const v1Id = v1.body.note.id as number;
    const postedV1 = shape(A.queue.items.splice(0));
    const app = await api("POST", "/api/v1/statuses", { status: "one" });
    const appId = Number(app.body.id);
    const postedApp = shape(A.queue.items.splice(0));
    expect(postedApp).toEqual(postedV1);
    await me.call("PATCH", "/v1/notes", { id: v1Id, label: "note", content: "<p>two</p>" });
    const editedV1 = shape(A.queue.items.splice(0));
    await api("PUT", `/api/v1/statuses/${appId}`, { status: "two" });
    expect(shape(A.queue.items.splice(0))).toEqual(editedV1);
    await me.call("DELETE", `/v1/notes/${v1Id}`);
    const deletedV1 = shape(A.queue.items.splice(0));
    await api("DELETE", `/api/v1/statuses/${appId}`);
    expect(shape(A.queue.items.splice(0))).toEqual(deletedV1);
  });
});

describe("report", () => {
  const flags = (queued: unknown[]) => queued.filter((m) => (m as { notex: string }).notex === "flag");

  for (const [where, target, owner] of [
    ["here", () => adaNote, () => ada],
    ["elsewhere", () => farNote, () => far],
  ] as const)
    it(`of a post ${where}, asked to forward: /v1 and a Mastodon app queue the same`, async () => {
      const id = target();
      const rows = async () => ({
        reports: await n("select count(*) n from reports where user_id = ? and target_id = ?", me.id, id),
      });
      const v1 = await through(() => me.call("POST", "/v1/reports", { nid: id, kind: 1, forward: true }), rows);
      await A.env.DB.prepare("delete from reports where user_id = ? and target_id = ?").bind(me.id, id).run();
      const app = await through(
        () =>
          api("POST", "/api/v1/reports", {
            account_id: String(owner().id),
            status_ids: [String(id)],
            category: "spam",
            forward: true,
          }),
        rows,
      );
      expect(flags(app.queued)).toEqual(flags(v1.queued));
      expect(app.rows).toEqual(v1.rows);
      // Only another server is told; a post here has nobody to forward to.
      expect(flags(v1.queued).length).toBe(where === "here" ? 0 : 1);
      await A.env.DB.prepare("delete from reports where user_id = ? and target_id = ?").bind(me.id, id).run();
    });

  it("with the author blocked: the block is told to the author's server, as a block is", async () => {
    const v1 = await through(
      () => me.call("POST", "/v1/reports", { nid: farNote, kind: 1, block: true }),
      async () => n("select count(*) n from blocks where blocker_id = ? and blocked_id = ?", me.id, far.id),
    );
    expect(v1.rows).toBe(1);
    expect(v1.queued).toMatchObject([{ notex: "block", op: "create", uid: me.id, target: far.id }]);
    await me.call("DELETE", `/v1/blocks/${far.id}`);
  });
});

describe("profile edit", () => {
  it("/v1 and a Mastodon app write the same and queue the same", async () => {
    const rows = async () => A.env.DB.prepare("select fullname, descr from users where id = ?").bind(me.id).first();
    const v1 = await through(() => me.call("PATCH", "/v1/users", { name: "Op Me", descr: "hello" }), rows);
    await me.call("PATCH", "/v1/users", { name: "reset", descr: "" });
    A.queue.items.splice(0);
    const app = await through(
      () => api("PATCH", "/api/v1/accounts/update_credentials", { display_name: "Op Me", note: "hello" }),
      rows,
    );
    expect(app).toEqual(v1);
  });
});

describe("the inbox door", () => {
  const inbox = () => `${A.origin}/ap/inbox`;
  const actorOf = (p: Person) => `${B.origin}/ap/users/${p.id}`;
  const renotesBy = (actor: string) =>
    n(
      "select count(*) n from notes where kind = 1 and renote_id = ? and user_id = (select user_id from remote_actors where uri = ?)",
      adaNote,
      actor,
    );

  it("an Undo(Announce) removes only its sender's own renote, and forgets only that Announce", async () => {
    const cal = await person(B, "opcall");
    const announce = (p: Person, tag: string) => ({
      id: `${actorOf(p)}#announces/${tag}`,
      type: "Announce",
      actor: actorOf(p),
      object: `${A.origin}/ap/notes/${adaNote}`,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
    });
    const beas = announce(bea, "1");
    for (const [p, a] of [
      [bea, beas],
      [cal, announce(cal, "2")],
    ] as const)
      expect((await signedPost(B, p.id, inbox(), a)).status).toBeLessThan(300);
    await drain([A, B]);
    expect([await renotesBy(actorOf(bea)), await renotesBy(actorOf(cal))]).toEqual([1, 1]);
    // cal undoes bea's Announce: neither renote goes, and bea's Announce is still known here.
    const undo = { id: `${actorOf(cal)}#undo/1`, type: "Undo", actor: actorOf(cal), object: beas };
    expect((await signedPost(B, cal.id, inbox(), undo)).status).toBeLessThan(300);
    await drain([A, B]);
    expect([await renotesBy(actorOf(bea)), await renotesBy(actorOf(cal))]).toEqual([1, 1]);
    expect(await n("select count(*) n from remote_objects where uri = ?", beas.id)).toBe(1);
    // bea's own Undo takes hers back.
    const own = { id: `${actorOf(bea)}#undo/1`, type: "Undo", actor: actorOf(bea), object: beas };
    expect((await signedPost(B, bea.id, inbox(), own)).status).toBeLessThan(300);
    await drain([A, B]);
    expect([await renotesBy(actorOf(bea)), await renotesBy(actorOf(cal))]).toEqual([0, 1]);
    expect(await n("select count(*) n from remote_objects where uri = ?", beas.id)).toBe(0);
  });
});
