// One path per action, for deleting a note or a reply: /v1 (which the pages' form actions call in
// process) and a Mastodon app's DELETE tell the same servers — the followers', the mentioned
// people's, and those of who replied to, quoted, renoted or liked it — and a remote server's Delete
// removes the copy stored here. The other actions' doors are in one-path.test.ts and
// one-path-posts.test.ts; their world is tests/doors-world.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { doorsWorld } from "../doors-world";
import { drain, noteBy, type Person, person, signedPost } from "../fediverse";

const world = doorsWorld("onepathdel", "od");
const { A, B, api, n } = world;
let me: Person; // acts, through each door
let adaNote: number; // someone else's note here

beforeAll(async () => {
  ({ me, adaNote } = await world.open());
}, 120_000);
afterAll(() => world.close());

describe("delete of a note or a reply", () => {
  // Servers named *.reach.test stand for the servers of people stored here: each keeps what it is sent.
  const got: { host: string; type: string; object: string }[] = [];
  let restore: () => void;
  afterAll(() => restore());

  /** Someone on `letter`.reach.test, stored here (a remote_actors row), who can act here through /v1. */
  async function elsewhere(letter: string) {
    const p = await person(A, `odreach${letter}`);
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
    const app = await deleted(() => api("DELETE", `/api/v1/statuses/${appId}`));
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
    const app = await deleted(() => api("DELETE", `/api/v1/statuses/${appId}`));
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
    const bea = await person(B, "odbeadel");
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
