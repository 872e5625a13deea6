// ActivityPub discovery and actors through the worker: WebFinger, NodeInfo, host-meta, the Person
// with its keys, content negotiation on the profile page, and the keys sealed at rest.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { user, visitor } from "../factories";

const AP = { accept: "application/activity+json" };
const HOST = "notex.test";

// Fedify is a dynamic import in the worker: the first one compiles it (seconds, once per run).
beforeAll(() => import("../../worker/features/federation/federation"), 120_000);

describe("federation discovery", () => {
  it("WebFinger answers acct:name@host with a self link to a stable actor URI", async () => {
    const ada = await user();
    const res = await visitor().get(`/.well-known/webfinger?resource=acct:${ada.username}@${HOST}`);
    expect(res.status).toBe(200);
    expect(res.body.subject).toBe(`acct:${ada.username}@${HOST}`);
    const self = res.body.links.find((l: { rel: string }) => l.rel === "self");
    expect(self).toMatchObject({ type: "application/activity+json", href: `http://${HOST}/ap/users/${ada.id}` });
    // Unknown handles are a 404, not a page.
    expect((await visitor().get(`/.well-known/webfinger?resource=acct:nobody-here@${HOST}`)).status).toBe(404);
  });

  it("a renamed account keeps its actor URI, and its old handle still resolves to it", async () => {
    const ada = await user();
    const old = ada.username;
    const renamed = `r${old}`.slice(0, 20);
    expect((await ada.patch("/v1/users/username", { username: renamed })).status).toBe(200);
    for (const name of [renamed, old]) {
      const res = await visitor().get(`/.well-known/webfinger?resource=acct:${name}@${HOST}`);
      expect(res.status).toBe(200);
      expect(res.body.links.find((l: { rel: string }) => l.rel === "self").href).toBe(
        `http://${HOST}/ap/users/${ada.id}`,
      );
    }
  });

  it("the actor is a Person with inbox, outbox, collections, shared inbox, RSA key and Ed25519 assertion method", async () => {
    const ada = await user({ name: "Ada Lovelace" });
    const res = await visitor().get(`/ap/users/${ada.id}`, AP);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/activity\+json|ld\+json/);
    const p = res.body;
    expect(p.type).toBe("Person");
    expect(p.id).toBe(`http://${HOST}/ap/users/${ada.id}`);
    expect(p.preferredUsername).toBe(ada.username);
    expect(p.name).toBe("Ada Lovelace");
    expect(p.url).toBe(`http://${HOST}/${ada.username}`);
    expect(p.inbox).toBe(`http://${HOST}/ap/users/${ada.id}/inbox`);
    expect(p.outbox).toBe(`http://${HOST}/ap/users/${ada.id}/outbox`);
    expect(p.followers).toBe(`http://${HOST}/ap/users/${ada.id}/followers`);
    expect(p.following).toBe(`http://${HOST}/ap/users/${ada.id}/following`);
    expect(p.endpoints.sharedInbox).toBe(`http://${HOST}/ap/inbox`);
    expect(p.publicKey.owner).toBe(p.id);
    expect(p.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(p.assertionMethod[0].type).toBe("Multikey");
    // The same keys the second time (made once, stored), and the private halves are sealed.
    const again = await visitor().get(`/ap/users/${ada.id}`, AP);
    expect(again.body.publicKey.publicKeyPem).toBe(p.publicKey.publicKeyPem);
    const row = await env.DB.prepare("select * from actor_keys where user_id = ?")
      .bind(ada.id)
      .first<Record<string, string>>();
    expect(row?.rsa_private).toMatch(/^v1\./);
    expect(row?.rsa_private).not.toMatch(/"d"|PRIVATE/);
    expect(row?.ed_private).toMatch(/^v1\./);
  });

  it("the profile page answers the actor when asked for activity+json, and HTML otherwise", async () => {
    const ada = await user();
    const res = await visitor().get(`/${ada.username}`, AP);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(`http://${HOST}/ap/users/${ada.id}`);
    // A browser's request goes on to the page (the test worker's stand-in answers 404 for pages).
    const page = await visitor().get(`/${ada.username}`, { accept: "text/html" });
    expect(page.headers.get("content-type") ?? "").not.toMatch(/activity/);
  });

  it("a note answers as a Note at its page URL and at its object URI", async () => {
    const ada = await user();
    const made = await ada.post("/v1/notes", { label: "work", content: "<p>Hello #fediverse</p>" });
    expect(made.status).toBe(201);
    const id = made.body.note.id;
    for (const path of [`/ap/notes/${id}`, `/${ada.username}/note/${id}`]) {
      const res = await visitor().get(path, AP);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        type: "Note",
        id: `http://${HOST}/ap/notes/${id}`,
        attributedTo: `http://${HOST}/ap/users/${ada.id}`,
        to: "as:Public",
        cc: `http://${HOST}/ap/users/${ada.id}/followers`,
        url: `http://${HOST}/${ada.username}/note/${id}`,
      });
      expect(res.body.content).toContain(`href="http://${HOST}/tag/fediverse"`);
    }
  });

  it("a quote carries the quoted note's URI the ways Mastodon and Misskey read it; a renote is an Announce", async () => {
    const ada = await user();
    const bob = await user();
    const original = (await ada.post("/v1/notes", { label: "work", content: "<p>Original</p>" })).body.note.id;
    const quote = await bob.post("/v1/renotes", { renote_id: original, content: "<p>Quoting</p>", quote: true });
    expect(quote.status).toBe(201);
    const q = await visitor().get(`/ap/notes/${quote.body.id}`, AP);
    const uri = `http://${HOST}/ap/notes/${original}`;
    expect(q.body).toMatchObject({ type: "Note", quote: uri, quoteUrl: uri, _misskey_quote: uri });
    expect((await bob.post("/v1/renotes", { renote_id: original, content: "" })).status).toBe(201);
    const announce = await visitor().get(`/ap/users/${bob.id}/renotes/${original}`, AP);
    expect(announce.body).toMatchObject({ type: "Announce", actor: `http://${HOST}/ap/users/${bob.id}`, object: uri });
  });

  it("a reply is a Note in reply to its note; the outbox is a paged collection of Creates", async () => {
    const ada = await user();
    const note = (await ada.post("/v1/notes", { label: "work", content: "<p>Thread</p>" })).body.note.id;
    const reply = await ada.post("/v1/replies", { parent: -note, content: "<p>First reply</p>" });
    const r = await visitor().get(`/ap/notes/r${reply.body.id}`, AP);
    expect(r.body).toMatchObject({ type: "Note", inReplyTo: `http://${HOST}/ap/notes/${note}` });
    const outbox = await visitor().get(`/ap/users/${ada.id}/outbox`, AP);
    expect(outbox.body).toMatchObject({ type: "OrderedCollection", totalItems: 1 });
    const first = await visitor().get(new URL(outbox.body.first).pathname + new URL(outbox.body.first).search, AP);
    expect(first.body.orderedItems[0]).toMatchObject({
      type: "Create",
      object: { id: `http://${HOST}/ap/notes/${note}` },
    });
  });

  it("a reply made before worker ids keeps the addresses it was published under", async () => {
    const ada = await user();
    const note = (await ada.post("/v1/notes", { label: "work", content: "<p>Old thread</p>" })).body.note.id;
    // As migration 0040 leaves a reply that was number 7: its row id is 2^40 + 7.
    const id = 2 ** 40 + 7;
    await env.DB.prepare(
      "insert into replies (id, user_id, note_id, content, txt) values (?, ?, ?, '<p>old</p>', 'old')",
    )
      .bind(id, ada.id, note)
      .run();
    const r = await visitor().get("/ap/notes/r7", AP);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: "Note", id: `http://${HOST}/ap/notes/r7` });
    expect((await visitor().get(`/ap/notes/r${id}`, AP)).body.id).toBe(`http://${HOST}/ap/notes/r7`);
    // Its Mastodon status is its row id, whose uri is the same object.
    const reply = (await ada.post("/v1/replies", { parent: id, content: "<p>new under old</p>" })).body;
    expect(reply.parent).toBe(id);
    const page = await visitor().get(`/ap/notes/r${reply.id}`, AP);
    expect(page.body.inReplyTo).toBe(`http://${HOST}/ap/notes/r7`);
  });

  it("NodeInfo 2.1 behind /.well-known/nodeinfo, and host-meta", async () => {
    await user();
    const wk = await visitor().get("/.well-known/nodeinfo");
    expect(wk.status).toBe(200);
    const link = wk.body.links[0];
    expect(link.rel).toBe("http://nodeinfo.diaspora.software/ns/schema/2.1");
    const ni = await visitor().get(new URL(link.href).pathname);
    expect(ni.status).toBe(200);
    expect(ni.body.software.name).toBe("notex");
    expect(ni.body.protocols).toEqual(["activitypub"]);
    expect(ni.body.usage.users.total).toBeGreaterThan(0);
    const hm = await visitor().get("/.well-known/host-meta");
    expect(hm.status).toBe(200);
    expect(hm.body).toContain(`template="http://${HOST}/.well-known/webfinger?resource={uri}"`);
  });
});
