// NoteX against a peer it did not write (tests/cavage-peer.ts: draft-cavage signatures only, with
// @peertube/http-signature; undoes matched by id; GETs answered only when signed), and against a
// second NoteX: what real servers need on the wire.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cavagePeer } from "../cavage-peer";
import { appToken, caller, drain, instance, migrate, person, routeFetch, type Person } from "../fediverse";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
const peer = cavagePeer("cavage.test", { secure: true });
const both = [A, B];
let unroute: () => void;
let ada: Person; // on a.test
let bea: Person; // on a.test
let bob: Person; // on b.test
const AP = { accept: "application/activity+json" };
const carolUri = peer.account("carol");
const HASH = "LEHV6nWB2yk8pyo0adR*.7kCMdnj"; // 4×3, as Mastodon makes them

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B, peer]);
  ada = await person(A, "adainterop");
  bea = await person(A, "beainterop");
  bob = await person(B, "bobinterop");
}, 120_000);
afterAll(() => unroute());

const get = (inst: typeof A, path: string, headers: Record<string, string> = AP) =>
  inst.fetch(new Request(`${inst.origin}${path}`, { headers }));
const adaActor = () => `${A.origin}/ap/users/${ada.id}`;
/** What reached the peer of `type`, newest last. */
const arrived = (type: string) => peer.inbox.filter((a) => a.type === type);
const lastNote = () => arrived("Create").at(-1)?.object as Record<string, any>;
let carolOnA = 0;

describe("a draft-cavage peer in secure mode", () => {
  it("ada finds carol on a server that answers only signed GETs: signed by the instance actor", async () => {
    const found = await ada.call("GET", "/v1/users/carol@cavage.test");
    expect(found.status).toBe(200);
    carolOnA = found.body.id;
    expect(peer.signedGets).toContain(`${A.origin}/ap/users/instance#main-key`);
    expect(peer.unsignedGets).toEqual([]);
  });

  it("carol follows ada; ada's notes reach her, signed draft-cavage (Fedify falls back)", async () => {
    const res = await peer.send("carol", `${adaActor()}/inbox`, {
      id: `${carolUri}#follows/1`,
      type: "Follow",
      actor: carolUri,
      object: adaActor(),
    });
    expect(res.status).toBe(202);
    await drain(both);
    expect(arrived("Accept").length).toBeGreaterThan(0);
    const made = await ada.call("POST", "/v1/notes", { label: "idea", content: "<p>hello cavage</p>" });
    expect(made.status).toBe(201);
    await drain(both);
    expect(lastNote()?.content).toContain("hello cavage");
  });

  it("a photo goes out with its file's real type, its alt text, its size and blurhash", async () => {
    const made = await ada.call("POST", "/v1/notes", { label: "idea", content: "<p>a photo</p>" });
    const imgs = `/img/u/${ada.id}/note/a.png;/img/u/${ada.id}/note/b.jpeg`;
    const dims = JSON.stringify([[640, 480, HASH], null]);
    await A.env.DB.prepare("update notes set imgs = ?, alts = ?, dims = ? where id = ?")
      .bind(imgs, JSON.stringify(["A cat", ""]), dims, made.body.note.id)
      .run();
    await A.queue.send({ notex: "note", op: "update", uid: ada.id, id: made.body.note.id, origin: A.origin });
    await drain(both);
    const note = (arrived("Update").at(-1)?.object ?? {}) as Record<string, any>;
    const media = [note.attachment].flat();
    // With each picture's size and blurhash, as Mastodon's own are (it reads `blurhash` as is).
    const shape = (list: any[]) => list.map((m) => [m.mediaType, m.name ?? null, m.url, m.width, m.height, m.blurhash]);
    const expected = [
      ["image/png", "A cat", `${A.origin}/img/u/${ada.id}/note/a.png`, 640, 480, HASH],
      ["image/jpeg", null, `${A.origin}/img/u/${ada.id}/note/b.jpeg`, undefined, undefined, undefined],
    ];
    expect(shape(media)).toEqual(expected);
    const served = (await (await get(A, `/ap/notes/${made.body.note.id}`)).json()) as any;
    expect(shape([served.attachment].flat())).toEqual(expected);
  });

  it("content links are absolute, mentions of local and remote people carry Mention tags", async () => {
    const made = await ada.call("POST", "/v1/notes", {
      label: "idea",
      content: `<p>hi @${bea.username} and @carol@cavage.test #Tagged</p>`,
    });
    expect(made.status).toBe(201);
    await drain(both);
    const note = lastNote();
    expect(note.content).toContain(`href="${A.origin}/${bea.username}"`);
    expect(note.content).not.toMatch(/href="\//);
    const mentions = [note.tag]
      .flat()
      .filter((t: any) => t.type === "Mention")
      .map((t: any) => [t.href, t.name]);
    expect(mentions).toEqual(
      expect.arrayContaining([
        [`${A.origin}/ap/users/${bea.id}`, `@${bea.username}@a.test`],
        [carolUri, "@carol@cavage.test"],
      ]),
    );
    // And the Mastodon API says the same: absolute links.
    const token = await appToken(A, ada);
    const status = await caller(A)("GET", `/api/v1/statuses/${made.body.note.id}`, undefined, token);
    expect(status.body.content).toContain(`href="${A.origin}/${bea.username}"`);
    expect(status.body.content).toContain(`href="${A.origin}/@carol@cavage.test"`);
  });

  it("a typed URL becomes a link, through the API as through the page", async () => {
    const made = await ada.call("POST", "/v1/notes", {
      label: "idea",
      content: "<p>read https://example.com/a?b=1&amp;c=2. and (http://example.org/x) or javascript:alert(1)</p>",
    });
    expect(made.status).toBe(201);
    const mine = await ada.call("GET", `/v1/notes/${made.body.note.id}`);
    expect(mine.body.content).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener ugc">');
    expect(mine.body.content).toContain("c=2</a>.");
    expect(mine.body.content).toContain(
      '<a href="http://example.org/x" rel="nofollow noopener ugc">http://example.org/x</a>)',
    );
    expect(mine.body.content).not.toContain('href="javascript');
    await drain(both);
    expect(lastNote().content).toContain('href="https://example.com/a?b=1&amp;c=2"');
  });

  it("the x-label is no Hashtag: a Link tag with NoteX's relation and a visible line; real hashtags stay", async () => {
    const made = await ada.call("POST", "/v1/notes", { label: "how to", content: "<p>labelled #RealTag</p>" });
    expect(made.status).toBe(201);
    await drain(both);
    const note = lastNote();
    const tags = [note.tag].flat().filter(Boolean);
    expect(tags.filter((t: any) => t.type === "Hashtag").map((t: any) => t.name)).toEqual(["#realtag"]);
    expect(tags.filter((t: any) => t.type === "Link").map((t: any) => [t.rel, t.name])).toEqual([
      ["urn:notex:xlabel", "how to"],
    ]);
    expect(note.content).toMatch(/^<p>\[how to\]<\/p><p>labelled/);
  });

  it("unfollow, unlike and unblock embed the original activity by its id; a renote after an undo has a fresh id", async () => {
    expect((await ada.call("POST", `/v1/follows/${carolOnA}`)).status).toBe(200);
    await drain(both);
    expect(peer.followersOf("carol")).toContain(adaActor());
    const follow = arrived("Follow").at(-1);
    expect((await ada.call("DELETE", `/v1/follows/${carolOnA}`)).status).toBe(200);
    await drain(both);
    expect(peer.undone).toContain(follow?.id);
    expect(peer.followersOf("carol")).not.toContain(adaActor());

    // carol posts to ada; ada likes and unlikes it, blocks and unblocks carol.
    await peer.post("carol", `${adaActor()}/inbox`, {
      content: "<p>from carol</p>",
      cc: [adaActor()],
      tag: [{ type: "Mention", href: adaActor(), name: `@${ada.username}@a.test` }],
    });
    await drain(both);
    const stored = await A.env.DB.prepare(
      "select row_id as id from remote_objects where kind = 'note' and user_id = ? order by row_id desc",
    )
      .bind(carolOnA)
      .first<{ id: number }>();
    expect(stored).toBeTruthy();
    const noteId = stored?.id ?? 0;
    expect((await ada.call("POST", `/v1/likes/${noteId}?t=note`)).status).toBe(200);
    await drain(both);
    const like = arrived("Like").at(-1);
    expect((await ada.call("DELETE", `/v1/likes/${noteId}?t=note`)).status).toBe(200);
    await drain(both);
    expect(peer.undone).toContain(like?.id);

    expect((await ada.call("POST", "/v1/renotes", { renote_id: noteId, content: "" })).status).toBe(201);
    await drain(both);
    const first = arrived("Announce").at(-1)?.id;
    expect((await ada.call("DELETE", `/v1/renotes/${noteId}`)).status).toBe(200);
    await drain(both);
    expect(peer.undone).toContain(first);
    expect((await ada.call("POST", "/v1/renotes", { renote_id: noteId, content: "" })).status).toBe(201);
    await drain(both);
    const second = arrived("Announce").at(-1)?.id;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);

    expect((await ada.call("POST", `/v1/blocks/${carolOnA}`)).status).toBeLessThan(300);
    await drain(both);
    const block = arrived("Block").at(-1);
    expect(block).toBeTruthy();
    expect((await ada.call("DELETE", `/v1/blocks/${carolOnA}`)).status).toBeLessThan(300);
    await drain(both);
    expect(peer.undone).toContain(block?.id);
    expect(peer.unmatched).toEqual([]);
    expect(peer.refused).toEqual([]);
  });
});

describe("the Mastodon API shows what came from elsewhere as the original", () => {
  const mastodon = async (path: string) => caller(A)("GET", path, undefined, await appToken(A, ada));

  it("a remote account's url is its profile page and its fields are its PropertyValues; ada's CV travels as a field", async () => {
    const acc = await mastodon(`/api/v1/accounts/${carolOnA}`);
    expect(acc.body.url).toBe(`${peer.origin}/@carol`);
    expect(acc.body.uri).toBe(carolUri);
    expect(acc.body.fields.map((f: { name: string }) => f.name)).toEqual(["Website", "Pronouns"]);
    expect(acc.body.fields[0].value).toContain('href="https://carol.example/"');
    expect(acc.body.fields[1].value).toBe("they/them");

    const actor = await (await get(A, `/ap/users/${ada.id}`)).json<Record<string, any>>();
    const fields = [actor.attachment].flat().filter((a: any) => a?.type === "PropertyValue");
    expect(fields.map((f: any) => f.name)).toEqual(["CV"]);
    expect(fields[0].value).toContain(`href="${A.origin}/${ada.username}/cv"`);
    const mine = await mastodon(`/api/v1/accounts/${ada.id}`);
    expect(mine.body.fields.map((f: { name: string }) => f.name)).toEqual(["CV"]);
    expect(mine.body.fields[0].value).toContain(`href="${A.origin}/${ada.username}/cv"`);
  });

  it("a remote status's uri is its ActivityPub id and its url the page it names", async () => {
    await peer.post("carol", `${adaActor()}/inbox`, {
      content: "<p>original elsewhere</p>",
      url: `${peer.origin}/@carol/4242`,
      cc: [adaActor()],
      tag: [{ type: "Mention", href: adaActor(), name: `@${ada.username}@a.test` }],
    });
    await drain(both);
    const stored = await A.env.DB.prepare(
      "select uri, row_id as id from remote_objects where kind = 'note' and user_id = ? order by row_id desc",
    )
      .bind(carolOnA)
      .first<{ uri: string; id: number }>();
    const status = await mastodon(`/api/v1/statuses/${stored?.id ?? 0}`);
    expect(status.body.content).toContain("original elsewhere");
    expect(status.body.uri).toBe(stored?.uri);
    expect(status.body.url).toBe(`${peer.origin}/@carol/4242`);
  });

  it("search with resolve=true opens a pasted post from its URL (fetched, signed, and stored); then by its page too", async () => {
    const id = peer.publish("carol", { content: "<p>pasted post</p>", url: `${peer.origin}/@carol/777` });
    const q = (s: string, resolve = true) =>
      mastodon(`/api/v2/search?type=statuses&q=${encodeURIComponent(s)}${resolve ? "&resolve=true" : ""}`);
    expect((await q(id, false)).body.statuses).toEqual([]);
    const found = await q(id);
    expect(found.status).toBe(200);
    expect(found.body.statuses.map((s: { uri: string }) => s.uri)).toEqual([id]);
    expect(found.body.statuses[0].content).toContain("pasted post");
    expect(found.body.statuses[0].account.id).toBe(String(carolOnA));
    const byPage = await q(`${peer.origin}/@carol/777`);
    expect(byPage.body.statuses.map((s: { id: string }) => s.id)).toEqual([found.body.statuses[0].id]);
    // A post of this server by its URL is itself.
    const own = await ada.call("POST", "/v1/notes", { label: "idea", content: "<p>mine to find</p>" });
    const mine = await q(`${A.origin}/${ada.username}/note/${own.body.note.id}`);
    expect(mine.body.statuses.map((s: { id: string }) => s.id)).toEqual([String(own.body.note.id)]);
  });

  it("/authorize_interaction opens a remote post's page here", async () => {
    const id = peer.publish("carol", { content: "<p>interact with me</p>" });
    const res = await get(A, `/authorize_interaction?uri=${encodeURIComponent(id)}`, {});
    expect(res.status).toBe(302);
    const row = await A.env.DB.prepare("select row_id as id from remote_objects where uri = ?")
      .bind(id)
      .first<{ id: number }>();
    expect(row).toBeTruthy();
    expect(res.headers.get("location")).toBe(`/@carol@cavage.test/note/${row?.id}`);
  });
});

describe("a locked account elsewhere (manuallyApprovesFollowers)", () => {
  it("a follow stays requested until their Accept; a Reject clears it", async () => {
    const doraUri = peer.account("dora", { locked: true });
    const dora = (await ada.call("GET", "/v1/users/dora@cavage.test")).body.id;
    const followers = async () => (await ada.call("GET", "/v1/users/dora@cavage.test")).body.stats?.follower;
    const before = await followers();
    const asked = await ada.call("POST", `/v1/follows/${dora}`);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ following: false, requested: true });
    await drain(both);
    expect(peer.pending("dora").map((f) => f.actor)).toEqual([adaActor()]);
    const profile = await ada.call("GET", "/v1/users/dora@cavage.test");
    expect(profile.body).toMatchObject({ following: false, requested: true });
    expect(await followers()).toBe(before);
    const token = await appToken(A, ada);
    const rel = async () =>
      (await caller(A)("GET", `/api/v1/accounts/relationships?id[]=${dora}`, undefined, token)).body[0];
    expect(await rel()).toMatchObject({ following: false, requested: true });

    expect((await peer.decide("dora", adaActor(), true)).status).toBe(202);
    await drain(both);
    expect(await rel()).toMatchObject({ following: true, requested: false });
    expect((await ada.call("GET", "/v1/users/dora@cavage.test")).body).toMatchObject({
      following: true,
      requested: false,
    });
    expect(peer.followersOf("dora")).toContain(adaActor());

    // bea asks too, and dora says no.
    expect((await bea.call("POST", `/v1/follows/${dora}`)).body).toMatchObject({ requested: true });
    await drain(both);
    expect((await peer.decide("dora", `${A.origin}/ap/users/${bea.id}`, false)).status).toBe(202);
    await drain(both);
    expect((await bea.call("GET", "/v1/users/dora@cavage.test")).body).toMatchObject({
      following: false,
      requested: false,
    });
    // An Accept nobody asked for follows no one.
    const forged = await peer.send("dora", `${A.origin}/ap/users/${bea.id}/inbox`, {
      id: `${doraUri}#answers/forged`,
      type: "Accept",
      actor: doraUri,
      object: `${A.origin}/ap/users/${bea.id}#follows/${dora}/1`,
    });
    expect(forged.status).toBe(202);
    await drain(both);
    expect((await bea.call("GET", "/v1/users/dora@cavage.test")).body.following).toBe(false);
  });
});

describe("actors, WebFinger, collections and tombstones", () => {
  it("the actor is indexable", async () => {
    const actor = await (await get(A, `/ap/users/${ada.id}`)).json<Record<string, unknown>>();
    expect(actor.indexable).toBe(true);
  });

  it("WebFinger takes acct:, a bare user@host, the profile URL and the actor URL, with a subscribe template", async () => {
    for (const resource of [
      `acct:${ada.username}@a.test`,
      `${ada.username}@a.test`,
      `${A.origin}/${ada.username}`,
      adaActor(),
    ]) {
      const res = await get(A, `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, {});
      expect(res.status, resource).toBe(200);
      const jrd = await res.json<{ links: { rel: string; href?: string; template?: string }[] }>();
      expect(jrd.links.find((l) => l.rel === "self")?.href).toBe(adaActor());
      expect(jrd.links.find((l) => l.rel === "http://ostatus.org/schema/1.0/subscribe")?.template).toBe(
        `${A.origin}/authorize_interaction?uri={uri}`,
      );
    }
  });

  it("the following collection has totalItems", async () => {
    const res = await get(A, `/ap/users/${ada.id}/following`);
    expect((await res.json<{ totalItems?: number }>()).totalItems).toBeTypeOf("number");
  });

  it("a deleted note answers 410 on its ActivityPub id", async () => {
    const made = await bea.call("POST", "/v1/notes", { label: "idea", content: "<p>soon gone</p>" });
    expect((await get(A, `/ap/notes/${made.body.note.id}`)).status).toBe(200);
    expect((await bea.call("DELETE", `/v1/notes/${made.body.note.id}`)).status).toBe(200);
    expect((await get(A, `/ap/notes/${made.body.note.id}`)).status).toBe(410);
  });

  it("/authorize_interaction opens the account or note a remote button names", async () => {
    const res = await get(A, `/authorize_interaction?uri=${encodeURIComponent(`acct:${ada.username}@a.test`)}`, {});
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/${ada.username}`);
  });
});

describe("authorized fetch (AUTHORIZED_FETCH=true)", () => {
  it("answers NoteX's documents only to signed GETs from servers not blocked; WebFinger, NodeInfo and the instance actor stay open", async () => {
    const on = instance("a.test", env.DB);
    Object.assign(on.env, { AUTHORIZED_FETCH: "true" });
    const unroute2 = routeFetch([on, B, peer]);
    try {
      const note = await ada.call("POST", "/v1/notes", { label: "idea", content: "<p>secure</p>" });
      for (const path of [`/ap/users/${ada.id}`, `/ap/notes/${note.body.note.id}`, `/ap/users/${ada.id}/outbox`])
        expect((await get(on, path)).status, path).toBe(401);
      expect((await get(on, `/.well-known/webfinger?resource=acct:${ada.username}@a.test`, {})).status).toBe(200);
      expect((await get(on, "/nodeinfo/2.1", {})).status).toBe(200);
      expect((await get(on, "/ap/users/instance")).status).toBe(200);
      expect((await peer.get(`${on.origin}/ap/users/${ada.id}`)).status).toBe(200);
      expect((await peer.get(`${on.origin}/ap/notes/${note.body.note.id}`)).status).toBe(200);
      await on.env.DB.prepare(
        "insert into domain_blocks (host, reason, created_by, created_at) values ('cavage.test', 'test', 0, ?)",
      )
        .bind(Date.now())
        .run();
      expect((await peer.get(`${on.origin}/ap/users/${ada.id}`)).status).toBe(401);
      await on.env.DB.prepare("delete from domain_blocks where host = 'cavage.test'").run();
    } finally {
      unroute2();
    }
  });
});

describe("between two NoteX servers", () => {
  it("a note keeps its x-label on the other NoteX", async () => {
    const adaOnB = (await bob.call("GET", `/v1/users/${ada.username}@a.test`)).body.id;
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect((await ada.call("POST", "/v1/notes", { label: "how to", content: "<p>x-label travels</p>" })).status).toBe(
      201,
    );
    await drain(both);
    const feed = await bob.call("GET", "/v1/feeds");
    const item = feed.body.notes.find((n: { content: string }) => n.content.includes("x-label travels"));
    expect(item?.label).toBe("how to");
    expect(item?.content).not.toContain("[how to]");
  });
});
