// A Mastodon archive brought in: checked whole before anything is written (size, zip bombs by
// ratio, count and overlap, names that climb out, JSON that is missing or broken), previewed with
// its counts, then imported as notes with their dates, images and threads, delivered to no one;
// a second import adds nothing. Every archive here is built in code (tests/archive.ts).
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { archive, mediaPath, SAMPLE, SAMPLE_FILES } from "../archive";
import { type TestUser, user } from "../factories";
import { BASE } from "../http";
import { PNG } from "../images";
import worker from "../worker";

async function upload(u: TestUser, bytes: Uint8Array) {
  const form = new FormData();
  form.set("file", new File([bytes as unknown as BlobPart], "archive.zip", { type: "application/zip" }));
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}/v1/imports/archive`, {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${u.token}`, "cf-connecting-ip": u.ip },
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

/** Nothing of a refused archive stays: no staged object in R2, no note. */
async function nothingKept(u: TestUser) {
  const staged = await env.IMAGES.list({ prefix: `imports/${u.id}/` });
  const row = await env.DB.prepare("select note_num from users where id = ?").bind(u.id).first<{ note_num: number }>();
  return { staged: staged.objects.length, notes: row?.note_num };
}

describe("archive preview", () => {
  it("counts what the archive holds and lists what is left out, writing nothing", async () => {
    const u = await user();
    const res = await upload(u, archive({ items: SAMPLE, files: SAMPLE_FILES }));
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.body.counts).toEqual({ posts: 3, replies: 2, media: 1, skipped: 4 });
    const reasons = res.body.left.map((l: { reason: string }) => l.reason);
    expect(reasons).toEqual(
      expect.arrayContaining([
        "a boost of another post",
        "followers-only",
        "a direct message",
        "a reply to someone else’s post, or to one of yours not imported",
        "video/mp4 left out: only images are imported",
      ]),
    );
    expect(res.body.profile).toMatchObject({ name: "Ana from Old", avatar: true, header: true });
    expect(res.body.profile.bio).toContain("Site: ana.example");
    expect((await nothingKept(u)).notes).toBe(0);
  });

  it("answers a missing or broken outbox with a 422 naming the file, keeping nothing", async () => {
    const u = await user();
    const missing = await upload(u, archive({ items: SAMPLE, omit: ["outbox.json"] }));
    expect(missing.status).toBe(422);
    expect(missing.body.message).toContain("no outbox.json");
    const broken = await upload(u, archive({ outboxText: '{"type": "OrderedCollection", "orderedItems": [' }));
    expect(broken.status).toBe(422);
    expect(broken.body.message).toContain("outbox.json in the archive is not valid JSON");
    const wrong = await upload(u, archive({ outboxText: "[1, 2, 3]" }));
    expect(wrong.status).toBe(422);
    const noActor = await upload(u, archive({ items: SAMPLE, omit: ["actor.json"] }));
    expect(noActor.status).toBe(422);
    expect(noActor.body.message).toContain("no actor.json");
    expect(await nothingKept(u)).toEqual({ staged: 0, notes: 0 });
  });

  it("refuses a file that is no zip, and an empty upload", async () => {
    const u = await user();
    const res = await upload(u, strToU8("just some text, not a zip at all"));
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("not a zip archive");
    expect(await nothingKept(u)).toEqual({ staged: 0, notes: 0 });
  });
});

describe("hostile archives", () => {
  it("refuses a zip bomb by its compression ratio, read from the directory before inflating", async () => {
    const u = await user();
    const res = await upload(u, archive({ items: SAMPLE, files: { [mediaPath(1)]: new Uint8Array(20 << 20) } }));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain("refused as a zip bomb");
    expect(await nothingKept(u)).toEqual({ staged: 0, notes: 0 });
  });

  it("refuses entries that overlap (many names pointing at one block)", async () => {
    const u = await user();
    const zip = zipSync({
      "outbox.json": strToU8('{"type":"OrderedCollection","orderedItems":[]}'),
      "actor.json": strToU8("{}"),
    });
    // The second central-directory entry is made to point at the first entry's local header.
    const view = new DataView(zip.buffer);
    let at = zip.length - 22;
    const dir = view.getUint32(at + 16, true);
    at = dir;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    view.setUint32(at + 42, 0, true);
    const res = await upload(u, zip);
    expect(res.status).toBe(413);
    expect(res.body.message).toContain("overlap");
  });

  it("refuses more entries than an archive may have", async () => {
    const u = await user();
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i <= 20_000; i++) files[`media_attachments/x/${i}`] = new Uint8Array(0);
    const res = await upload(u, archive({ items: [], files }));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain("more than 20000 files");
  });

  it("refuses entry names that climb out of the archive", async () => {
    const u = await user();
    for (const name of ["../../etc/passwd", "/abs/outbox.json", "media\\..\\..\\x.png"]) {
      const res = await upload(u, archive({ items: SAMPLE, files: { [name]: PNG } }));
      expect(res.status, name).toBe(422);
      expect(res.body.message).toContain("unsafe name");
    }
    expect(await nothingKept(u)).toEqual({ staged: 0, notes: 0 });
  });

  it("refuses an upload over the size cap before reading it", async () => {
    const u = await user();
    const res = await upload(u, new Uint8Array((100 << 20) + 70_000));
    expect(res.status).toBe(413);
  });
});
