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
//   delete          /v1/notes, replies /api DELETE status   inbox Delete
//   report          /v1/reports        /api reports         inbox Flag
//   profile edit    /v1/users          /api update_credentials
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appToken,
  caller,
  drain,
  instance,
  migrate,
  noteBy,
  type Person,
  person,
  routeFetch,
  signedPost,
  standInFar,
} from "../fediverse";

const A = instance("onepath.test", env.DB);
const B = instance("onepath-b.test", env.DB_B);
let unroute: () => void;
let me: Person; // acts, through each door
let ada: Person; // someone here
let far: Person; // stands for someone on another server (a remote_actors row)
let token: string;
let adaNote: number;
let farNote: number;

const api = (method: string, path: string, body?: unknown) => caller(A)(method, path, body, token);

const n = async (q: string, ...args: unknown[]) =>
  (await A.env.DB.prepare(q)
    .bind(...args)
    .first<{ n: number }>())!.n;

/** What one door's call set off: its answer's status, the messages queued, and `rows` read after. */
async function through<R>(call: () => Promise<{ status: number; body: unknown }>, rows: () => Promise<R>) {
  A.queue.items.splice(0);
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return { queued: A.queue.items.splice(0), rows: await rows() };
}

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B]);
  me = await person(A, "opmee");
  ada = await person(A, "opadaa");
  far = await person(A, "opfarr");
  token = await appToken(A, me);
  adaNote = await noteBy(ada, "here");
  farNote = await noteBy(far, "from elsewhere");
  await standInFar(env.DB, far.id, farNote);
}, 120_000);
afterAll(() => unroute());

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
      const v1 = await through(() => me.call("POST", `/v1/likes/${id}?t=note`), rows(id));
      const v1Undo = await through(() => me.call("DELETE", `/v1/likes/${id}?t=note`), rows(id));
      const app = await through(() => api("POST", `/api/v1/statuses/${id * 2}/favourite`), rows(id));
      const appUndo = await through(() => api("POST", `/api/v1/statuses/${id * 2}/unfavourite`), rows(id));
      expect(app).toEqual(v1);
      expect(appUndo).toEqual(v1Undo);
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
    const v1 = await through(() => me.call("POST", `/v1/bookmarks/${adaNote}?t=note`), rows);
    const v1Undo = await through(() => me.call("DELETE", `/v1/bookmarks/${adaNote}?t=note`), rows);
    const app = await through(() => api("POST", `/api/v1/statuses/${adaNote * 2}/bookmark`), rows);
    const appUndo = await through(() => api("POST", `/api/v1/statuses/${adaNote * 2}/unbookmark`), rows);
    expect([app, appUndo]).toEqual([v1, v1Undo]);
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
      const v1 = await through(() => me.call("POST", `/v1/follows/${uid}`), rows(uid));
      const v1Undo = await through(() => me.call("DELETE", `/v1/follows/${uid}`), rows(uid));
      const app = await through(() => api("POST", `/api/v1/accounts/${uid}/follow`), rows(uid));
      const appUndo = await through(() => api("POST", `/api/v1/accounts/${uid}/unfollow`), rows(uid));
      expect([app, appUndo]).toEqual([v1, v1Undo]);
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
      const v1 = await through(() => me.call("POST", `/v1/blocks/${uid}`), rows(uid));
      const v1Undo = await through(() => me.call("DELETE", `/v1/blocks/${uid}`), rows(uid));
      const app = await through(() => api("POST", `/api/v1/accounts/${uid}/block`), rows(uid));
      const appUndo = await through(() => api("POST", `/api/v1/accounts/${uid}/unblock`), rows(uid));
      expect([app, appUndo]).toEqual([v1, v1Undo]);
      expect(v1.rows.blocks).toBe(1);
      // Only the blocked person's server is told (Block, then Undo(Block)).
      expect([v1.queued.length, v1Undo.queued.length]).toEqual(where === "here" ? [0, 0] : [1, 1]);
    });

    it(`a mute of someone ${where}: /v1 and a Mastodon app do the same, and nothing is told`, async () => {
      const uid = target().id;
      const v1 = await through(() => me.call("POST", `/v1/mutes/${uid}`), rows(uid));
      const v1Undo = await through(() => me.call("DELETE", `/v1/mutes/${uid}`), rows(uid));
      const app = await through(() => api("POST", `/api/v1/accounts/${uid}/mute`), rows(uid));
      const appUndo = await through(() => api("POST", `/api/v1/accounts/${uid}/unmute`), rows(uid));
      expect([app, appUndo]).toEqual([v1, v1Undo]);
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
    const appId = Number(app.body.id) / 2;
    const postedApp = shape(A.queue.items.splice(0));
    expect(postedApp).toEqual(postedV1);
    await me.call("PATCH", "/v1/notes", { id: v1Id, label: "note", content: "<p>two</p>" });
    const editedV1 = shape(A.queue.items.splice(0));
    await api("PUT", `/api/v1/statuses/${appId * 2}`, { status: "two" });
    expect(shape(A.queue.items.splice(0))).toEqual(editedV1);
    await me.call("DELETE", `/v1/notes/${v1Id}`);
    const deletedV1 = shape(A.queue.items.splice(0));
    await api("DELETE", `/api/v1/statuses/${appId * 2}`);
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
            status_ids: [String(id * 2)],
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
    const bea = await person(B, "opbeaa");
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

describe("delete of a note or a reply", () => {
  // Servers named *.reach.test stand for the servers of people stored here: each keeps what it is sent.
  const got: { host: string; type: string; object: string }[] = [];
  let restore: () => void;
  afterAll(() => restore());

  /** Someone on `letter`.reach.test, stored here (a remote_actors row), who can act here through /v1. */
  async function elsewhere(letter: string) {
    const p = await person(A, `opreach${letter}`);
    const host = `${letter}.reach.test`;
    await A.env.DB.batch([
      A.env.DB.prepare(
        "insert into remote_actors (user_id, uri, host, inbox, shared_inbox, url, fetched_at) values (?1, ?2, ?3, ?4, null, '', 0)",
      ).bind(p.id, `http://${host}/u/${p.username}`, host, `http://${host}/inbox`),
      A.env.DB.prepare("update users set username = ?2 where id = ?1").bind(p.id, `${p.username}@${host}`),
    ]);
    return { ...p, handle: `${p.username}@${host}` };
  }

  let people: Record<
    "follower" | "mentioned" | "replier" | "quoter" | "renoter" | "liker",
    Awaited<ReturnType<typeof elsewhere>>
  >;
  beforeAll(async () => {
    const inner = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const host = new URL(request.url).host;
      if (!host.endsWith(".reach.test")) return inner(request);
      const body = (await request.json()) as { type: string; object: string | { id: string } };
      got.push({ host, type: body.type, object: typeof body.object === "string" ? body.object : body.object.id });
      return new Response(null, { status: 202 });
    }) as typeof fetch;
    restore = () => {
      globalThis.fetch = inner;
    };
    people = {
      follower: await elsewhere("f"),
      mentioned: await elsewhere("m"),
      replier: await elsewhere("r"),
      quoter: await elsewhere("q"),
      renoter: await elsewhere("n"),
      liker: await elsewhere("l"),
    };
    expect((await people.follower.call("POST", `/v1/follows/${me.id}`)).status).toBeLessThan(300);
  }, 60_000);

  /** What a door's delete queued, then where it went once delivered: each server's activity, in host order. */
  async function deleted(call: () => Promise<{ status: number; body: unknown }>) {
    A.queue.items.splice(0);
    const res = await call();
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const queued = A.queue.items.map((m) => {
      const { id: _id, ...rest } = m as { id?: number };
      return rest;
    });
    got.splice(0);
    await drain([A, B]);
    const sent = got.splice(0).sort((a, b) => a.host.localeCompare(b.host));
    return { queued, sent };
  }

  /** My note that the mentioned person is named in, replied to, quoted, renoted and liked from elsewhere. */
  async function busyNote(word: string) {
    const id = await noteBy(me, `${word} @${people.mentioned.handle}`);
    await people.replier.call("POST", "/v1/replies", { parent: -id, content: `<p>answer ${word}</p>` });
    await people.quoter.call("POST", "/v1/renotes", { renote_id: id, content: `<p>quoting ${word}</p>` });
    await people.renoter.call("POST", "/v1/renotes", { renote_id: id, content: "" });
    await people.liker.call("POST", `/v1/likes/${id}?t=note`);
    return id;
  }

  it("of a note: /v1 and a Mastodon app tell the followers', mentioned people's, repliers', quoters', renoters' and likers' servers", async () => {
    const [v1Id, appId] = [await busyNote("one"), await busyNote("two")];
    const v1 = await deleted(() => me.call("DELETE", `/v1/notes/${v1Id}`));
    const app = await deleted(() => api("DELETE", `/api/v1/statuses/${appId * 2}`));
    expect(app.queued).toEqual(v1.queued);
    const tombstone = (id: number) => `${A.origin}/ap/notes/${id}`;
    for (const [door, id] of [
      [v1, v1Id],
      [app, appId],
    ] as const)
      expect(door.sent).toEqual(
        ["f", "l", "m", "n", "q", "r"].map((h) => ({ host: `${h}.reach.test`, type: "Delete", object: tombstone(id) })),
      );
  });

  it("of a reply: /v1 and a Mastodon app tell the followers', mentioned people's, repliers' and likers' servers", async () => {
    const busyReply = async (word: string) => {
      const made = await me.call("POST", "/v1/replies", {
        parent: -adaNote,
        content: `<p>${word} @${people.mentioned.handle}</p>`,
      });
      const id = made.body.id as number;
      await people.replier.call("POST", "/v1/replies", { parent: id, content: `<p>below ${word}</p>` });
      await people.liker.call("POST", `/v1/likes/${id}?t=reply`);
      return id;
    };
    const [v1Id, appId] = [await busyReply("yes"), await busyReply("indeed")];
    const v1 = await deleted(() => me.call("DELETE", `/v1/replies/${v1Id}`));
    const app = await deleted(() => api("DELETE", `/api/v1/statuses/${appId * 2 + 1}`));
    expect(app.queued).toEqual(v1.queued);
    const tombstone = (id: number) => `${A.origin}/ap/notes/r${id}`;
    for (const [door, id] of [
      [v1, v1Id],
      [app, appId],
    ] as const)
      expect(door.sent).toEqual(
        ["f", "l", "m", "r"].map((h) => ({ host: `${h}.reach.test`, type: "Delete", object: tombstone(id) })),
      );
  });
  it("from another server: its Delete removes the stored copy; a delete that fails keeps the mapping for the retry", async () => {
    const bea = await person(B, "opbeadel");
    const made = await bea.call("POST", "/v1/notes", {
      label: "work",
      content: `<p>hello @${me.username}@${A.host}</p>`,
    });
    expect(made.status).toBe(201);
    await drain([A, B]);
    const uri = `${B.origin}/ap/notes/${made.body.note.id}`;
    const stored = () => n("select count(*) n from remote_objects where uri = ?", uri);
    const row = await A.env.DB.prepare("select row_id, user_id from remote_objects where uri = ?")
      .bind(uri)
      .first<{ row_id: number; user_id: number }>();
    expect(row).not.toBeNull();
    const noteNum = () => n("select note_num n from users where id = ?", row!.user_id);
    expect(await noteNum()).toBe(1);
    const del = {
      id: `${uri}#delete`,
      type: "Delete",
      actor: `${B.origin}/ap/users/${bea.id}`,
      object: { type: "Tombstone", id: uri },
      to: ["https://www.w3.org/ns/activitystreams#Public"],
    };
    // The copy's delete fails here (the database refuses it): the mapping stays, and the activity is retried.
    await A.env.DB.prepare(
      `create trigger refuse_delete before delete on notes when old.id = ${row!.row_id} begin select raise(abort, 'refused'); end`,
    ).run();
    try {
      expect((await signedPost(B, bea.id, `${A.origin}/ap/inbox`, del)).status).toBeLessThan(300);
      await expect(drain([A, B])).rejects.toThrow(/asked to retry/);
      expect(await stored()).toBe(1);
    } finally {
      await A.env.DB.prepare("drop trigger refuse_delete").run();
    }
    A.queue.items.splice(0);
    expect((await signedPost(B, bea.id, `${A.origin}/ap/inbox`, del)).status).toBeLessThan(300);
    await drain([A, B]);
    expect(await stored()).toBe(0);
    expect(await n("select count(*) n from notes where id = ?", row!.row_id)).toBe(0);
    expect(await noteNum()).toBe(0);
    // Nothing goes out again: its own server told whom it meant to.
    expect(A.queue.items).toEqual([]);
  });
});
