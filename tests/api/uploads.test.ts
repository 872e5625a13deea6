import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { snapshot } from "../db-snapshot";
import { type TestUser, user, users, visitor } from "../factories";

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  (c) => c.charCodeAt(0),
);

async function reserve(u: TestUser, n = 1, size = PNG.length) {
  const res = await u.post("/v1/notes", {
    label: "idea",
    content: "<p>with images</p>",
    uploads: Array.from({ length: n }, () => ({ file_size: size, file_ext: "png" })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { note: { id: number }; uploads: { key: string; put_link: string; file_url: string }[] };
}

const put = (u: TestUser, link: string, body: BodyInit = PNG, type = "image/png") => {
  const url = new URL(link);
  return u.request("PUT", `${url.pathname}${url.search}`, body as unknown as string, { "content-type": type });
};

describe("signed uploads (issue 4 §4, issue 8 §6)", () => {
  it("a good PUT stores the image once; /img serves it with immutable caching; the note shows it", async () => {
    const a = await user();
    const { note, uploads } = await reserve(a, 2);
    expect(uploads[0].key).toMatch(new RegExp(`^u/${a.id}/note/[0-9a-f]{24}\\.png$`));
    expect(uploads[0].put_link).toContain("/v1/uploads/");
    for (const u of uploads) expect((await put(a, u.put_link)).status).toBe(200);
    const img = await a.get(uploads[0].file_url);
    expect(img.status).toBe(200);
    expect(img.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(img.headers.get("x-content-type-options")).toBe("nosniff");
    expect((await a.get(`/v1/notes/${note.id}`)).body.imgs).toBe(uploads.map((u) => u.file_url).join(";"));
    // Replayed: refused, nothing changes.
    const before = await snapshot();
    expect((await put(a, uploads[0].put_link)).status).toBe(409);
    expect(await snapshot()).toBe(before);
  });

  it("refuses tampered, expired, oversized, empty and wrong-type PUTs, storing nothing", async () => {
    const a = await user();
    const { uploads } = await reserve(a, 1);
    const link = new URL(uploads[0].put_link);
    const tamper = (k: string, v: string) => {
      const u = new URL(link);
      u.searchParams.set(k, v);
      return u.href;
    };
    const otherKey = link.href.replace(/\/note\/[0-9a-f]{24}/, "/note/000000000000000000000000");
    const cases: [string, number][] = [
      [tamper("sig", "0".repeat(64)), 403],
      [tamper("exp", String(Math.floor(Date.now() / 1000) + 9999)), 403],
      [tamper("max", "999999999"), 403],
      [otherKey, 403],
    ];
    for (const [href, status] of cases) expect((await put(a, href)).status, href).toBe(status);
    expect((await put(a, link.href, PNG, "text/html")).status).toBe(415);
    expect((await put(a, link.href, new Uint8Array(11 * 1024 * 1024))).status).toBe(413);
    expect(await env.IMAGES.get(uploads[0].key)).toBeNull();
    // The untouched link still works afterwards: failures claimed nothing.
    expect((await put(a, link.href)).status).toBe(200);
  });

  it("refuses an expired link even with a valid signature", async () => {
    const a = await user();
    const { uploads } = await reserve(a, 1);
    await env.DB.prepare("update uploads set expires_at = 1 where key = ?").bind(uploads[0].key).run();
    expect((await put(a, uploads[0].put_link)).status).toBe(409);
  });

  it("caps sizes when reserving and never lets a note use another user's image", async () => {
    const [a, b] = await users(2);
    const big = await a.post("/v1/notes", {
      label: "idea",
      content: "<p>x</p>",
      uploads: [{ file_size: 11 * 1024 * 1024, file_ext: "png" }],
    });
    expect(big.status).toBe(422);
    const { uploads } = await reserve(a, 1);
    await put(a, uploads[0].put_link);
    const steal = await b.post("/v1/notes", { label: "idea", content: "<p>mine</p>", imgs: uploads[0].file_url });
    expect(steal.status).toBe(422);
    expect((await b.get(uploads[0].file_url)).status).toBe(200);
  });

  it("deleting a note deletes its images", async () => {
    const a = await user();
    const { note, uploads } = await reserve(a, 1);
    await put(a, uploads[0].put_link);
    expect(await env.IMAGES.get(uploads[0].key)).not.toBeNull();
    await a.delete(`/v1/notes/${note.id}`);
    expect(await env.IMAGES.get(uploads[0].key)).toBeNull();
    expect((await a.get(uploads[0].file_url)).status).toBe(404);
  });

  it("keeps an alt text per image in the images' order, through edits, on lists and quotes", async () => {
    const [a, b] = await users(2);
    const res = await a.post("/v1/notes", {
      label: "idea",
      content: "<p>two pictures</p>",
      uploads: [
        { file_size: PNG.length, file_ext: "png" },
        { file_size: PNG.length, file_ext: "png" },
      ],
      alts: ["  A loom\u0007 weaving\n flowers ", "", "no third image"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const u of res.body.uploads) await put(a, u.put_link);
    const id = res.body.note.id;
    const detail = (await a.get(`/v1/notes/${a.username}/${id}`)).body;
    expect(detail.imgs.split(";")).toHaveLength(2);
    // Plain text, one per image: trimmed, control characters and newlines folded, extras dropped.
    expect(detail.alts).toEqual(["A loom weaving flowers", ""]);
    // An edit that keeps the second image first and describes it.
    const [first, second] = detail.imgs.split(";");
    const edit = await a.patch("/v1/notes", {
      id,
      label: "idea",
      content: "<p>two pictures</p>",
      imgs: [second, first],
      alts: ["The engine", "A loom"],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const list = (await b.get(`/v1/notes?uid=${a.id}&page=1`)).body.notes;
    expect(list[0]).toMatchObject({ imgs: `${second};${first}`, alts: ["The engine", "A loom"] });
    const quote = await b.post("/v1/renotes", { renote_id: id, content: "<p>look</p>" });
    expect(quote.status).toBe(201);
    const mine = (await b.get(`/v1/notes?uid=${b.id}&page=1`)).body.notes[0];
    expect(mine.renote.alts).toEqual(["The engine", "A loom"]);
    const long = await a.patch("/v1/notes", { id, label: "idea", content: "<p>x</p>", alts: ["x".repeat(1501)] });
    expect(long.status).toBe(422);
    expect(long.body.fields?.["alts.0"]).toBe("Image description must be less than 1500 characters.");
  });

  it("reserves a note's images before the note (POST /v1/uploads): PUT first, then a note with their URLs", async () => {
    const [a, b] = await users(2);
    const res = await a.post("/v1/uploads", { uploads: [{ file_size: PNG.length, file_ext: "png" }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [slot] = (res.body as { uploads: { key: string; put_link: string; file_url: string }[] }).uploads;
    expect(slot.key).toMatch(new RegExp(`^u/${a.id}/note/[0-9a-f]{24}\\.png$`));
    // Not uploaded yet: no note may point at it.
    const early = await a.post("/v1/notes", { label: "idea", content: "<p>too soon</p>", imgs: slot.file_url });
    expect(early.status).toBe(422);
    expect((await put(a, slot.put_link)).status).toBe(200);
    const made = await a.post("/v1/notes", { label: "idea", content: "<p>pictured</p>", imgs: slot.file_url });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await a.get(`/v1/notes/${made.body.note.id}`)).body.imgs).toBe(slot.file_url);
    expect((await b.post("/v1/notes", { label: "idea", content: "<p>x</p>", imgs: slot.file_url })).status).toBe(422);
    // Visitors, nothing, too many or too large: refused.
    expect((await visitor().post("/v1/uploads", { uploads: [{ file_size: 10, file_ext: "png" }] })).status).toBe(401);
    expect((await a.post("/v1/uploads", { uploads: [] })).status).toBe(422);
    const eleven = Array.from({ length: 11 }, () => ({ file_size: 10, file_ext: "png" }));
    expect((await a.post("/v1/uploads", { uploads: eleven })).status).toBe(422);
    const big = await a.post("/v1/uploads", { uploads: [{ file_size: 11 * 1024 * 1024, file_ext: "png" }] });
    expect(big.status).toBe(422);
  });

  it("a missing image answers 404 that no one caches (it may be an upload on its way)", async () => {
    const a = await user();
    const { uploads } = await reserve(a, 1);
    const early = await a.get(uploads[0].file_url);
    expect(early.status).toBe(404);
    expect(early.headers.get("cache-control")).toBe("no-store");
    await put(a, uploads[0].put_link);
    expect((await a.get(uploads[0].file_url)).status).toBe(200);
  });
});
