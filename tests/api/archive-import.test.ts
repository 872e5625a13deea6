// A Mastodon archive brought in: checked whole before anything is written (size, zip bombs by
// ratio, count and overlap, names that climb out, JSON that is missing or broken), previewed with
// its counts, then imported as notes with their dates, images and threads, delivered to no one;
// a second import adds nothing. Every archive here is built in code (tests/archive.ts).
import {
  createExecutionContext,
  createMessageBatch,
  env as baseEnv,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { archive, create, mediaPath, SAMPLE, SAMPLE_FILES, statusUrl } from "../archive";
import { wrongCounters } from "../counters";
import { MemoryQueue } from "../fediverse";
import { type TestUser, user } from "../factories";
import { BASE, fileForm } from "../http";
import { PNG } from "../images";
import worker from "../worker";

// The import queue kept in memory, its consumer run by drainJobs (as the platform would, one message at a time).
const jobs = new MemoryQueue();
const env = { ...baseEnv, IMPORT_QUEUE: jobs as unknown as Queue<unknown> };

/** A request with this file's env (its import queue): JSON, or a form (a file upload) as multipart. */
async function call(u: TestUser, method: string, path: string, body?: unknown) {
  const form = body instanceof FormData;
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}${path}`, {
      method,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      headers: {
        authorization: `Bearer ${u.token}`,
        "cf-connecting-ip": u.ip,
        ...(form ? {} : { "content-type": "application/json" }),
      },
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

let seq = 0;
async function drainJobs(max = 100) {
  for (let steps = 0; steps < max && jobs.items.length; steps++) {
    const body = jobs.items.shift();
    const batch = createMessageBatch("notex-imports", [{ id: `a${seq++}`, timestamp: new Date(), attempts: 1, body }]);
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.retryMessages).toEqual([]);
  }
}

const rows = async <T = Record<string, unknown>>(sql: string, ...args: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...args)
      .all<T>()
  ).results;

/** Upload, start and run an archive's import to its end; answers the job as its page shows it. */
async function importArchive(u: TestUser, bytes: Uint8Array, profile = "keep") {
  const preview = await upload(u, bytes);
  expect(preview.status).toBe(200);
  const started = await call(u, "POST", `/v1/imports/archive/${preview.body.id}/start`, { profile });
  expect(started.status).toBe(200);
  await drainJobs();
  const job = await call(u, "GET", `/v1/imports/jobs/${started.body.job.id}`);
  return { preview: preview.body, job: job.body.job ?? job.body, profile: started.body.profile };
}

const upload = (u: TestUser, bytes: Uint8Array) =>
  call(u, "POST", "/v1/imports/archive", fileForm("archive.zip", bytes));

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

describe("archive import", () => {
  it("makes notes with their dates, images with alt text and own threads, delivered to no one, counters exact", async () => {
    const ana = await user();
    const fan = await user();
    expect((await call(fan, "POST", `/v1/follows/${ana.id}`)).status).toBeLessThan(300);
    const { job, profile } = await importArchive(ana, archive({ items: SAMPLE, files: SAMPLE_FILES }), "replace");
    // What the preview left out is apart from the five to import, each with why.
    expect(job).toMatchObject({ state: "done", total: 5, done: 5, failed: 0, refused: 4 });
    expect(job.refusals.map((f: { reason: string }) => f.reason)).toEqual(
      expect.arrayContaining(["followers-only", "a direct message", "a boost of another post"]),
    );
    const notes = await rows<any>(
      "select id, created_at, origin_url, imgs, alts, txt from notes where user_id = ? order by created_at",
      ana.id,
    );
    expect(notes.map((n) => n.origin_url)).toEqual([statusUrl(1), statusUrl(2), statusUrl(8)]);
    expect(notes[0].created_at).toBe(Date.UTC(2020, 0, 1) + 3_600_000);
    expect(notes[0].imgs).toMatch(new RegExp(`^/img/u/${ana.id}/note/[0-9a-f]+\\.png$`));
    expect(JSON.parse(notes[0].alts)).toEqual(["A red scarf"]);
    const stored = await env.IMAGES.head(notes[0].imgs.slice(5));
    expect(stored?.httpMetadata?.contentType).toBe("image/png");
    expect(stored?.customMetadata?.alt).toBe("A red scarf");
    const replies = await rows<any>(
      "select id, note_id, parent_reply_id, origin_url from replies where user_id = ? order by created_at",
      ana.id,
    );
    expect(replies).toMatchObject([
      { note_id: notes[0].id, parent_reply_id: null, origin_url: statusUrl(3) },
      { note_id: notes[0].id, parent_reply_id: replies[0].id, origin_url: statusUrl(9) },
    ]);
    // The note answers where it came from; the thread is the note's.
    const note = await call(ana, "GET", `/v1/notes/${notes[0].id}`);
    expect(note.body.note?.origin_url ?? note.body.origin_url).toBe(statusUrl(1));
    expect(await wrongCounters()).toEqual([]);
    const [me] = await rows<any>("select note_num, fullname, descr, avatar, cover from users where id = ?", ana.id);
    expect(me).toMatchObject({ note_num: 3, fullname: "Ana from Old" });
    expect(me.descr).toContain("Site: ana.example");
    expect(me.avatar).toMatch(/^\/img\/u\/\d+\/avatar\//);
    expect(profile).toMatchObject({ changed: true });
    // Nobody is told: the follower has no notification and no imported note in their feed.
    expect(await rows("select action from notifications where user_id = ?", fan.id)).toEqual([]);
    expect(await rows("select action from notifications where user_id = ? and action != 'follow'", ana.id)).toEqual([
      { action: "import" },
    ]);
    const feed = await call(fan, "GET", "/v1/notes/feeds");
    expect(JSON.stringify(feed.body)).not.toContain("Hello from the old place");
  });

  it("imports the same archive twice without a duplicate", async () => {
    const ana = await user();
    const bytes = archive({ items: SAMPLE, files: SAMPLE_FILES });
    await importArchive(ana, bytes);
    const again = await importArchive(ana, bytes);
    expect(again.job).toMatchObject({ state: "done", done: 5 });
    expect(await rows("select id from notes where user_id = ?", ana.id)).toHaveLength(3);
    expect(await rows("select id from replies where user_id = ?", ana.id)).toHaveLength(2);
    expect(await rows("select key from uploads where user_id = ?", ana.id)).toHaveLength(1);
    const [me] = await rows<any>("select note_num from users where id = ?", ana.id);
    expect(me.note_num).toBe(3);
    expect(await wrongCounters()).toEqual([]);
  });

  it("keeps a post whose image is not an image, without it, and says why", async () => {
    const ana = await user();
    const items = [
      create({ n: 1, text: "A picture, they said", media: [{ path: mediaPath(1), alt: "fake" }] }),
      create({ n: 2, media: [{ path: mediaPath(2) }], text: "" }),
    ];
    const files = { [mediaPath(1)]: strToU8("<?php echo 'hi'; ?>"), [mediaPath(2)]: strToU8("MZ\x90\x00") };
    const { job } = await importArchive(ana, archive({ items, files }));
    expect(job.state).toBe("done");
    const reasons = job.failures.map((f: { reason: string }) => f.reason).join("\n");
    expect(reasons).toContain("1.png is not an image NoteX keeps");
    expect(reasons).toContain("nothing left to show");
    const notes = await rows<any>("select imgs, txt from notes where user_id = ?", ana.id);
    expect(notes).toEqual([{ imgs: "", txt: "A picture, they said" }]);
    expect((await env.IMAGES.list({ prefix: `u/${ana.id}/` })).objects).toEqual([]);
    expect(await wrongCounters()).toEqual([]);
  });
});
