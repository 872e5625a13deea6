// Images from other servers go through this worker (/img/remote/{sig}/{url}): a remote person's
// avatar and a remote post's pictures (with their alt text) are stored as signed proxy paths, and
// the proxy fetches only what was signed, only raster images, within the size cap and the SSRF rules.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxiedImage } from "../../worker/features/federation/media";
import { drain, type Instance, instance, migrate, person, routeFetch, signedPost, type Person } from "../fediverse";
import { callWith } from "../http";
import { PRODUCTION_ENV } from "../prod-env";

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
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B, media]);
  ada = await person(A, "adamedia");
  bob = await person(B, "bobmedia");
  await B.env.DB.prepare("update users set avatar = 'http://media.test/pic.png' where id = ?").bind(bob.id).run();
}, 120_000);
afterAll(() => unroute());

const get = (path: string) => A.fetch(new Request(`${A.origin}${path}`));

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

  it("a remote post's picture is kept with its alt text, shown through the proxy", async () => {
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
    await drain([A, B]);
    const bobUri = `${B.origin}/ap/users/${bob.id}`;
    const id = `${B.origin}/ap/notes/4242`;
    const res = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, {
      id: `${id}#create`,
      type: "Create",
      actor: bobUri,
      object: {
        id,
        type: "Note",
        attributedTo: bobUri,
        content: "<p>A picture from b.test</p>",
        to: "https://www.w3.org/ns/activitystreams#Public",
        attachment: [
          { type: "Document", mediaType: "image/png", url: "http://media.test/pic.png", name: "A checked square" },
          { type: "Document", mediaType: "video/mp4", url: "http://media.test/clip.mp4" },
          { type: "Image", url: "javascript:alert(1)" },
        ],
      },
    });
    expect(res.status).toBeLessThan(300);
    await drain([A, B]);
    const feed = await ada.call("GET", "/v1/feeds");
    const note = feed.body.notes.find((n: { content: string }) => n.content.includes("A picture from b.test"));
    expect(note.images).toEqual([proxiedImage(A.env, "http://media.test/pic.png")]);
    expect(note.alts).toEqual(["A checked square"]);
    expect((await get(note.images[0])).status).toBe(200);
  });

  it("only signed paths, raster images within the cap; redirects are followed and checked", async () => {
    const good = proxiedImage(A.env, "http://media.test/pic.png");
    const [, , , sig, url] = good.split("/");
    // Another URL under the same signature, or a forged signature: nothing is fetched.
    const other = btoa("http://media.test/huge.png").replace(/=+$/, "");
    expect((await get(`/img/remote/${sig}/${other}`)).status).toBe(404);
    expect((await get(`/img/remote/${"0".repeat(32)}/${url}`)).status).toBe(404);
    expect((await get(proxiedImage(A.env, "http://media.test/evil.svg"))).status).toBe(404);
    expect((await get(proxiedImage(A.env, "http://media.test/huge.png"))).status).toBe(404);
    expect((await get(proxiedImage(A.env, "http://media.test/moved.png"))).status).toBe(200);
    expect(proxiedImage(A.env, "javascript:alert(1)")).toBe("");
  });

  it("outside APP_ENV=local, plain http and private addresses are never fetched", async () => {
    const before = mediaHits;
    for (const url of ["http://media.test/pic.png", "https://127.0.0.1/pic.png", "https://10.0.0.7/pic.png"]) {
      const res = await callWith(PRODUCTION_ENV, proxiedImage(PRODUCTION_ENV, url));
      expect(res.status, url).toBe(404);
    }
    expect(mediaHits).toBe(before);
  });
});
