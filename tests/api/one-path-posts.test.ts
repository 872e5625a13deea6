// One path per action, for what a person writes: post, reply, edit, renote and its undo, quote and
// bookmark. Each runs through every door that offers it — /v1 with a session (which the pages'
// form actions call in process), /api with an app's token, and a signed inbox delivery for what a
// remote server does — and each door leaves the same rows, the same notifications and the same
// queued deliveries. A write is delivered only when someone elsewhere is concerned (a follower
// there, someone there named or answered); an inbound one is never delivered again.
//
// Doors per action (the pages' door is /v1's):
//   post            /v1/notes POST        /api statuses               inbox Create(Note)
//   reply           /v1/replies POST      /api in_reply_to_id          inbox Create(Note) inReplyTo
//   edit            /v1/notes PATCH       /api PUT statuses/:id        inbox Update(Note)
//   renote, undo    /v1/renotes           /api reblog, unreblog        inbox Announce, Undo(Announce)
//   quote           /v1/renotes content   /api quoted_status_id
//   bookmark        /v1/bookmarks         /api bookmark, unbookmark
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doorsWorld } from "../doors-world";
import { drain, type Person, signedPost } from "../fediverse";

const world = doorsWorld("posts", "pp");
const { A, B, api, n } = world;
let me: Person; // acts, through each door
let ada: Person; // someone here
let far: Person; // stands for someone on another server (a remote_actors row)
let bea: Person; // someone on B, whose server delivers to A's inbox
let adaNote: number;
let farNote: number;

type Counts = Record<string, number>;
/** What one door's call set off: the messages queued (by what they are about) and how `rows` moved. */
async function effect(call: () => Promise<{ status: number; body: unknown }>, rows: () => Promise<Counts>) {
  const before = await rows();
  A.queue.items.splice(0);
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  const after = await rows();
  const queued = A.queue.items.splice(0).map((m) => {
    const { notex, op } = m as { notex: string; op: string };
    return `${notex} ${op}`;
  });
  return { queued, moved: Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]])), res };
}
const same = (x: Awaited<ReturnType<typeof effect>>) => ({ queued: x.queued, moved: x.moved });

const inbox = () => `${A.origin}/ap/inbox`;
const beaUri = () => `${B.origin}/ap/users/${bea.id}`;
let seq = 0;
/** bea's server delivers a Create of her Note (`extra`: inReplyTo…), naming ada by a Mention tag. */
async function beaCreates(html: string, extra: object = {}) {
  const id = `${B.origin}/ap/notes/9${++seq}`;
  const note = {
    id,
    type: "Note",
    attributedTo: beaUri(),
    content: html,
    to: "https://www.w3.org/ns/activitystreams#Public",
    tag: [{ type: "Mention", href: `${A.origin}/ap/users/${ada.id}`, name: `@${ada.username}@${A.host}` }],
    ...extra,
  };
  const res = await signedPost(B, bea.id, inbox(), {
    id: `${id}#create`,
    type: "Create",
    actor: beaUri(),
    object: note,
  });
  return { status: res.status, body: note as unknown };
}

/** `far` follows `me` (a follower elsewhere) while `work` runs. */
async function followedFromFar<T>(work: () => Promise<T>): Promise<T> {
  await A.env.DB.prepare("insert into follows (follower_id, followee_id, created_at, remote) values (?, ?, 0, 1)")
    .bind(far.id, me.id)
    .run();
  try {
    return await work();
  } finally {
    await A.env.DB.prepare("delete from follows where follower_id = ? and followee_id = ?").bind(far.id, me.id).run();
  }
}

beforeAll(async () => {
  ({ me, ada, far, bea, adaNote, farNote } = await world.open());
}, 120_000);
afterAll(() => world.close());

describe("post", () => {
  const rows = async () => ({
    posts: await n("select count(*) n from notes where user_id = ? and kind = 0", me.id),
    counted: await n("select note_num n from users where id = ?", me.id),
    tagged: await n("select count(*) n from note_tags where tag = 'onepath'"),
    mentions: await n(
      "select count(*) n from notifications where user_id = ? and actor_id = ? and action = 'mention'",
      ada.id,
      me.id,
    ),
  });
  const v1 = (more = "") =>
    effect(
      () =>
        me.call("POST", "/v1/notes", {
          label: "work",
          content: `<p>hello @${ada.username} #onepath https://example.com/a ${more}</p>`,
        }),
      rows,
    );
  const app = (more = "") =>
    effect(
      () =>
        api("POST", "/api/v1/statuses", { status: `hello @${ada.username} #onepath https://example.com/a ${more}` }),
      rows,
    );

  it("with a mention, a hashtag and a link: /v1 and a Mastodon app write, notify and queue alike", async () => {
    const [web, mobile] = [await v1(), await app()];
    expect(same(mobile)).toEqual(same(web));
    expect(web.moved).toEqual({ posts: 1, counted: 1, tagged: 1, mentions: 1 });
    // Nobody elsewhere follows me or is named: nothing is queued (it is only streamed here).
    expect(web.queued).toEqual([]);
  });

  it("is delivered when someone elsewhere follows its author, or is named, through either door", async () => {
    const followed = await followedFromFar(async () => [same(await v1()), same(await app())]);
    expect(followed[1]).toEqual(followed[0]);
    expect(followed[0].queued).toEqual(["note create"]);
    const named = [same(await v1("@someone@far.test")), same(await app("@someone@far.test"))];
    expect(named[1]).toEqual(named[0]);
    expect(named[0].queued).toEqual(["note create"]);
  });

  it("from elsewhere (inbox Create): stored, ada told once, nothing delivered again", async () => {
    const told = () =>
      n(
        "select count(*) n from notifications where user_id = ? and action = 'mention' and actor_id != ?",
        ada.id,
        me.id,
      );
    const before = await told();
    const res = await beaCreates(`<p><a href="${A.origin}/@${ada.username}">@${ada.username}</a> hello</p>`);
    expect(res.status).toBeLessThan(300);
    await drain([A, B]);
    expect((await told()) - before).toBe(1);
    expect(A.queue.items.filter((m) => (m as { notex: string }).notex === "note")).toEqual([]);
  });
});

describe("reply", () => {
  const rows = (parent: () => number) => async () => ({
    repnum: await n("select repnum n from notes where id = ?", parent()),
    toAda: await n("select count(*) n from notifications where user_id = ?", ada.id),
  });

  it("to a post here that names its author: ada is told once through every door, nothing queued", async () => {
    const text = `@${ada.username} agreed`;
    const web = await effect(
      () => me.call("POST", "/v1/replies", { parent: -adaNote, content: `<p>${text}</p>` }),
      rows(() => adaNote),
    );
    const mobile = await effect(
      () => api("POST", "/api/v1/statuses", { status: `${text} too`, in_reply_to_id: String(adaNote) }),
      rows(() => adaNote),
    );
    const remote = await effect(
      async () => {
        const res = await beaCreates(`<p><a href="${A.origin}/@${ada.username}">@${ada.username}</a> agreed</p>`, {
          inReplyTo: `${A.origin}/ap/notes/${adaNote}`,
        });
        await drain([A, B]);
        return res;
      },
      rows(() => adaNote),
    );
    expect(web.moved).toEqual({ repnum: 1, toAda: 1 });
    expect(same(mobile)).toEqual(same(web));
    expect(remote.moved).toEqual(web.moved);
    expect(web.queued).toEqual([]);
  });

  it("to a post from elsewhere: delivered to its server through /v1 and a Mastodon app alike", async () => {
    const web = await effect(
      () => me.call("POST", "/v1/replies", { parent: -farNote, content: "<p>over there</p>" }),
      rows(() => farNote),
    );
    const mobile = await effect(
      () => api("POST", "/api/v1/statuses", { status: "over there too", in_reply_to_id: String(farNote) }),
      rows(() => farNote),
    );
    expect(same(mobile)).toEqual(same(web));
    expect(web.queued).toEqual(["reply create"]);
  });
});

describe("edit", () => {
  const rows = (id: () => number) => async () => ({
    versions: await n("select count(*) n from note_versions where note_id = ?", id()),
    mentions: await n(
      "select count(*) n from notifications where user_id = ? and action = 'mention' and target_id = ?",
      ada.id,
      id(),
    ),
  });
  const fresh = async () =>
    (await me.call("POST", "/v1/notes", { label: "work", content: "<p>first</p>" })).body.note.id as number;

  it("/v1 and a Mastodon app keep the history, tell whoever is newly named, and queue alike", async () => {
    const [one, two] = [await fresh(), await fresh()];
    const said = `now naming @${ada.username}`;
    const web = await effect(
      () => me.call("PATCH", "/v1/notes", { id: one, label: "work", content: `<p>${said}</p>` }),
      rows(() => one),
    );
    const mobile = await effect(
      () => api("PUT", `/api/v1/statuses/${two}`, { status: said }),
      rows(() => two),
    );
    expect(same(mobile)).toEqual(same(web));
    expect(web.moved).toEqual({ versions: 1, mentions: 1 });
    expect(web.queued).toEqual([]);
    const followed = await followedFromFar(async () => [
      same(
        await effect(
          () => me.call("PATCH", "/v1/notes", { id: one, label: "work", content: "<p>again</p>" }),
          rows(() => one),
        ),
      ),
      same(
        await effect(
          () => api("PUT", `/api/v1/statuses/${two}`, { status: "again" }),
          rows(() => two),
        ),
      ),
    ]);
    expect(followed[1]).toEqual(followed[0]);
    expect(followed[0].queued).toEqual(["note update"]);
  });

  it("from elsewhere (inbox Update): the history is kept and nothing is delivered again", async () => {
    const made = await beaCreates(`<p><a href="${A.origin}/@${ada.username}">@${ada.username}</a> draft</p>`);
    await drain([A, B]);
    const note = made.body as { id: string };
    const stored = await n("select row_id n from remote_objects where uri = ?", note.id);
    const update = {
      id: `${note.id}#update`,
      type: "Update",
      actor: beaUri(),
      object: { ...note, content: "<p>final words</p>" },
    };
    const remote = await effect(
      async () => {
        const res = await signedPost(B, bea.id, inbox(), update);
        await drain([A, B]);
        return { status: res.status, body: null };
      },
      rows(() => stored),
    );
    expect(remote.moved.versions).toBe(1);
    expect(await n("select count(*) n from notes where id = ? and txt = 'final words'", stored)).toBe(1);
    expect(remote.queued.filter((q) => q.startsWith("note"))).toEqual([]);
  });
});

describe("renote and its undo", () => {
  const rows = (id: () => number) => async () => ({
    renotes: await n("select count(*) n from notes where user_id = ? and renote_id = ? and kind = 1", me.id, id()),
    renum: await n("select renum n from notes where id = ?", id()),
    notices: await n("select count(*) n from notifications where actor_id = ? and action = 'renote'", me.id),
  });
  for (const [where, target] of [
    ["here", () => adaNote],
    ["elsewhere", () => farNote],
  ] as const)
    it(`of a post ${where}: /v1 and a Mastodon app write, notify and queue alike`, async () => {
      const id = target();
      const web = await effect(() => me.call("POST", "/v1/renotes", { renote_id: id, content: "" }), rows(target));
      const webUndo = await effect(() => me.call("DELETE", `/v1/renotes/${id}`), rows(target));
      const mobile = await effect(() => api("POST", `/api/v1/statuses/${id}/reblog`), rows(target));
      const mobileUndo = await effect(() => api("POST", `/api/v1/statuses/${id}/unreblog`), rows(target));
      expect([same(mobile), same(mobileUndo)]).toEqual([same(web), same(webUndo)]);
      expect(web.moved).toEqual({ renotes: 1, renum: 1, notices: 1 });
      // Only the original's server hears of it (nobody elsewhere follows me).
      expect([web.queued, webUndo.queued]).toEqual(
        where === "here" ? [[], []] : [["renote create"], ["renote delete"]],
      );
    });

  it("from elsewhere (inbox Announce, then Undo): counted, told, and delivered nowhere", async () => {
    const rowsOf = async () => ({
      renum: await n("select renum n from notes where id = ?", adaNote),
      toAda: await n("select count(*) n from notifications where user_id = ? and action = 'renote'", ada.id),
    });
    const announce = {
      id: `${beaUri()}#announces/${adaNote}/1`,
      type: "Announce",
      actor: beaUri(),
      object: `${A.origin}/ap/notes/${adaNote}`,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
    };
    const signed = (activity: object) => async () => {
      const res = await signedPost(B, bea.id, inbox(), activity);
      await drain([A, B]);
      return { status: res.status, body: null };
    };
    const made = await effect(signed(announce), rowsOf);
    const undone = await effect(
      signed({ id: `${announce.id}#undo`, type: "Undo", actor: beaUri(), object: announce }),
      rowsOf,
    );
    expect([made.moved, undone.moved]).toEqual([
      { renum: 1, toAda: 1 },
      { renum: -1, toAda: -1 },
    ]);
    expect([made.queued, undone.queued]).toEqual([[], []]);
  });
});

describe("quote", () => {
  it("/v1 and a Mastodon app write, notify and queue alike (a quote of a post elsewhere reaches its server)", async () => {
    for (const [target, queued] of [
      [() => adaNote, []],
      [() => farNote, ["note create"]],
    ] as const) {
      const rows = async () => ({
        quotes: await n(
          "select count(*) n from notes where user_id = ? and renote_id = ? and kind = 2",
          me.id,
          target(),
        ),
        renum: await n("select renum n from notes where id = ?", target()),
        notices: await n("select count(*) n from notifications where actor_id = ? and action = 'quote'", me.id),
      });
      const web = await effect(
        () => me.call("POST", "/v1/renotes", { renote_id: target(), content: "<p>see this</p>" }),
        rows,
      );
      const mobile = await effect(
        () => api("POST", "/api/v1/statuses", { status: "see this", quoted_status_id: String(target()) }),
        rows,
      );
      expect(same(mobile)).toEqual(same(web));
      expect(web.moved).toEqual({ quotes: 1, renum: 1, notices: 1 });
      expect(web.queued).toEqual(queued);
    }
  });
});

describe("bookmark", () => {
  it("an app's bookmark and unbookmark answer the D1 bookmark (sent back, a replica reads its own write)", async () => {
    const marked = await api("POST", `/api/v1/statuses/${adaNote}/bookmark`);
    expect(marked.status).toBe(200);
    expect(marked.body.bookmarked).toBe(true);
    const d1 = marked.headers.get("x-d1-bookmark");
    expect(d1).toBeTruthy();
    const list = await api("GET", "/api/v1/bookmarks");
    expect(list.body.map((s: { id: string }) => s.id)).toContain(String(adaNote));
    const unmarked = await api("POST", `/api/v1/statuses/${adaNote}/unbookmark`);
    expect([unmarked.body.bookmarked, unmarked.headers.get("x-d1-bookmark")]).toEqual([false, expect.any(String)]);
  });
});
