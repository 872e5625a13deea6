// Images from other servers go through this worker (/img/remote/{sig}/{url}): a remote person's
// avatar and a remote post's pictures (with their alt text) are stored as signed proxy paths, and
// the proxy fetches only what was signed, only while stored remote content names it (a deleted or
// hidden post's pictures, a deleted or suspended person's avatar are refused), only raster images,
// within the size cap and the SSRF rules. Answers already in the edge cache are served for their
// day there without asking D1 (media.ts), so each case below uses its own URL.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxiedImage } from "../../worker/features/federation/media";
import { connect, drain, type Instance, instance, person, signedPost, storedMedia, type Person } from "../fediverse";
import { callWith } from "../http";
import { PRODUCTION_ENV } from "../prod-env";

/** A 4×3 blurhash, as Mastodon makes them. */
const HASH = "LEHV6nWB2yk8pyo0adR*.7kCMdnj";
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAIUlEQVR42mP4sEUDK9KoOIEVMYxqoIkGXBK4DBrVQBMNAAvcmhBke073AAAAAElFTkSuQmCC",
  ),
  (c) => c.charCodeAt(0),
);

/** media.test: a server of pictures (and a few things that are not pictures). */
let mediaHits = 0;
const media = {
  host: "media.test",
  fetch: async (request: Request) => {
    mediaHits++;
    const path = new URL(request.url).pathname;
    if (path === "/pic.png") return new Response(PNG, { headers: { "content-type": "image/png" } });
    if (path === "/evil.svg")
      return new Response("<svg onload='alert(1)'/>", { headers: { "content-type": "image/svg+xml" } });
    if (path === "/huge.png")
      return new Response(new Uint8Array(9 * 1024 * 1024), { headers: { "content-type": "image/png" } });
    if (path === "/moved.png") return new Response(null, { status: 302, headers: { location: "/pic.png" } });
    return new Response("no", { status: 404 });
  },
} as unknown as Instance;

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
let unroute: () => void;
let ada: Person;
let bob: Person;
let bobOnA = 0;

beforeAll(async () => {
  unroute = await connect([A, B, media]);
  ada = await person(A, "adamedia");
  bob = await person(B, "bobmedia");
  await B.env.DB.prepare("update users set avatar = 'http://media.test/pic.png' where id = ?").bind(bob.id).run();
}, 120_000);
afterAll(() => unroute());

const get = (path: string) => A.fetch(new Request(`${A.origin}${path}`));

let noteSeq = 4300;
/** bob on b.test posts a note with these attachments to ada (followed, so it is kept); it as ada reads it. */
async function attachmentsPost(attachment: object[]) {
  const bobUri = `${B.origin}/ap/users/${bob.id}`;
  const id = `${B.origin}/ap/notes/${++noteSeq}`;
  const text = `Pictures ${noteSeq}`;
  const res = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, {
    id: `${id}#create`,
    type: "Create",
    actor: bobUri,
    object: {
      id,
      type: "Note",
      attributedTo: bobUri,
      content: `<p>${text}</p>`,
      to: "https://www.w3.org/ns/activitystreams#Public",
      attachment,
    },
  });
  expect(res.status).toBeLessThan(300);
  await drain([A, B]);
  const feed = await ada.call("GET", "/v1/feeds");
  const note = feed.body.notes.find((n: { content: string }) => n.content.includes(text));
  return { uri: id, note };
}

/** A note of bob's with these pictures; its id on A and its images. */
async function picturePost(urls: string[]) {
  const { uri, note } = await attachmentsPost(urls.map((url) => ({ type: "Document", mediaType: "image/png", url })));
  return { uri, noteId: note.id as number, images: note.images as string[] };
}

describe("remote images through the worker", () => {
  it("a remote avatar is stored as a signed proxy path that answers the image", async () => {
    const found = await ada.call("GET", "/v1/users/bobmedia@b.test");
    bobOnA = found.body.id;
    expect(found.body.avatar).toBe(proxiedImage(A.env, "http://media.test/pic.png"));
    expect(found.body.avatar).toMatch(/^\/img\/remote\/[0-9a-f]{32}\/[\w-]+$/);
    const res = await get(found.body.avatar);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toContain("max-age=86400");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });

  it("a remote post's picture is kept with its alt text, size and blurhash, shown through the proxy", async () => {
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
    await drain([A, B]);
    const { note } = await attachmentsPost([
      {
        type: "Document",
        mediaType: "image/png",
        url: "http://media.test/pic.png",
        name: "A checked square",
        // As Mastodon sends them: the picture's size and blurhash.
        width: 1600,
        height: 900,
        blurhash: HASH,
      },
      { type: "Document", mediaType: "video/mp4", url: "http://media.test/clip.mp4" },
      { type: "Image", url: "javascript:alert(1)" },
    ]);
    expect(note.images).toEqual([proxiedImage(A.env, "http://media.test/pic.png")]);
    expect(note.alts).toEqual(["A checked square"]);
    expect(note.dims).toEqual([{ width: 1600, height: 900, blurhash: HASH }]);
    expect((await get(note.images[0])).status).toBe(200);
  });

  it("only signed paths, raster images within the cap; redirects are followed and checked", async () => {
    const urls = ["evil.svg", "huge.png", "moved.png", "pic.png?signed"].map((f) => `http://media.test/${f}`);
    const { images } = await picturePost(urls);
    expect(images).toEqual(urls.map((u) => proxiedImage(A.env, u)));
    const [, , , sig, url] = images[3].split("/");
    // Another URL under the same signature, or a forged signature: nothing is fetched.
    const other = btoa("http://media.test/huge.png").replace(/=+$/, "");
    expect((await get(`/img/remote/${sig}/${other}`)).status).toBe(404);
    expect((await get(`/img/remote/${"0".repeat(32)}/${url}`)).status).toBe(404);
    expect((await get(images[0])).status).toBe(404);
    expect((await get(images[1])).status).toBe(404);
    expect((await get(images[2])).status).toBe(200);
    expect(proxiedImage(A.env, "javascript:alert(1)")).toBe("");
  });

  it("a signed URL that no stored content names is refused without fetching it", async () => {
    const before = mediaHits;
    const res = await get(proxiedImage(A.env, "http://media.test/pic.png?nobody-stored-this"));
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(mediaHits).toBe(before);
  });

  it("a remote post's pictures are refused once the post is deleted or hidden", async () => {
    const deleted = await picturePost(["http://media.test/pic.png?deleted"]);
    const hidden = await picturePost(["http://media.test/pic.png?hidden"]);
    // Deleted by its author on b.test.
    const bobUri = `${B.origin}/ap/users/${bob.id}`;
    const del = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, {
      id: `${deleted.uri}#delete`,
      type: "Delete",
      actor: bobUri,
      object: { id: deleted.uri, type: "Tombstone" },
    });
    expect(del.status).toBeLessThan(300);
    await drain([A, B]);
    // Hidden by a moderator here.
    const mod = await person(A, "modmedia");
    await A.env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const hide = { kind: "note", id: hidden.noteId, action: "hide", reason: "Spam" };
    expect((await mod.call("POST", "/v1/moderation/actions", hide)).status).toBe(200);
    const before = mediaHits;
    expect((await get(deleted.images[0])).status).toBe(404);
    expect((await get(hidden.images[0])).status).toBe(404);
    expect(mediaHits).toBe(before);
    // Shown again: served again.
    expect((await mod.call("POST", "/v1/moderation/actions", { ...hide, action: "restore" })).status).toBe(200);
    expect((await get(hidden.images[0])).status).toBe(200);
  });

  it("a remote person's avatar is refused once they are suspended or deleted here", async () => {
    const carol = await person(B, "carolmedia");
    await B.env.DB.prepare("update users set avatar = 'http://media.test/pic.png?carol' where id = ?")
      .bind(carol.id)
      .run();
    const found = await ada.call("GET", "/v1/users/carolmedia@b.test");
    const avatar = found.body.avatar as string;
    expect(avatar).toBe(proxiedImage(A.env, "http://media.test/pic.png?carol"));
    await A.env.DB.prepare("update users set suspended_at = ? where id = ?").bind(Date.now(), found.body.id).run();
    expect((await get(avatar)).status).toBe(404);
    await A.env.DB.prepare("update users set suspended_at = null where id = ?").bind(found.body.id).run();
    await A.env.DB.prepare("delete from users where id = ?").bind(found.body.id).run();
    expect((await get(avatar)).status).toBe(404);
    // A refreshed profile forgets the avatar it replaced.
    expect((await get((await ada.call("GET", `/v1/users/bobmedia@b.test`)).body.avatar)).status).toBe(200);
  });

  it("local pictures are served as before", async () => {
    const made = await ada.call("POST", "/v1/notes", {
      label: "idea",
      content: "<p>my own picture</p>",
      uploads: [{ file_size: PNG.length, file_ext: "png" }],
    });
    expect(made.status).toBe(201);
    const { put_link: link, file_url: file } = made.body.uploads[0];
    const put = await A.fetch(
      new Request(link.replace(/^https?:\/\/[^/]+/, A.origin), {
        method: "PUT",
        body: PNG,
        headers: { "content-type": "image/png" },
      }),
    );
    expect(put.status).toBe(200);
    expect((await get(file)).status).toBe(200);
  });

  it("outside APP_ENV=local, plain http and private addresses are never fetched", async () => {
    const before = mediaHits;
    const urls = ["http://media.test/pic.png", "https://127.0.0.1/pic.png", "https://10.0.0.7/pic.png"];
    // Named by stored content (the proxy's first check), so the outbound gate is what refuses them.
    await storedMedia(
      env.DB,
      bobOnA,
      urls.map((u) => proxiedImage(PRODUCTION_ENV, u)),
    );
    for (const url of urls) {
      const res = await callWith(PRODUCTION_ENV, proxiedImage(PRODUCTION_ENV, url));
      expect(res.status, url).toBe(404);
    }
    expect(mediaHits).toBe(before);
  });
});
