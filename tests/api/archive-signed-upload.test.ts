// An archive bigger than a request may carry goes straight to R2: the API signs a PUT for it (as
// for images), the browser sends the zip there, then asks for the preview, which reads it from R2
// as an upload through the form is read. The request limit is lowered here (ARCHIVE_BODY_MAX) so a
// fixture of a few hundred kilobytes stands in for an archive of gigabytes.
import {
  createExecutionContext,
  createMessageBatch,
  env as baseEnv,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { archive, SAMPLE, SAMPLE_FILES } from "../archive";
import { MemoryQueue } from "../fediverse";
import { type TestUser, user } from "../factories";
import { BASE } from "../http";
import worker from "../worker";

const LIMIT = 64 * 1024;
const jobs = new MemoryQueue();
const env = { ...baseEnv, IMPORT_QUEUE: jobs as unknown as Queue<unknown>, ARCHIVE_BODY_MAX: String(LIMIT) };

async function send(u: TestUser | null, method: string, url: string, body?: unknown, type = "application/json") {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { "cf-connecting-ip": "10.44.0.1", "content-type": type };
  if (u) headers.authorization = `Bearer ${u.token}`;
  const res = await worker.fetch(
    new Request(url.startsWith("http") ? url : `${BASE}${url}`, {
      method,
      body: body as BodyInit | undefined,
      headers,
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** Bytes that do not compress (getRandomValues fills at most 64 KB at a time). */
function noise(n: number) {
  const out = new Uint8Array(n);
  for (let at = 0; at < n; at += 65_536) crypto.getRandomValues(out.subarray(at, Math.min(n, at + 65_536)));
  return out;
}

/** The sample archive with a stored (uncompressed) filler entry: bigger than the lowered limit. */
const big = () =>
  archive({
    items: SAMPLE,
    files: { ...SAMPLE_FILES, "media_attachments/filler.bin": noise(200_000) },
  });

let seq = 0;
async function drainJobs() {
  while (jobs.items.length) {
    const batch = createMessageBatch("notex-imports", [
      { id: `s${seq++}`, timestamp: new Date(), attempts: 1, body: jobs.items.shift() },
    ]);
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).retryMessages).toEqual([]);
  }
}

describe("archives bigger than a request", () => {
  it("are refused through the form, and go by a signed PUT to R2, then preview and import as any other", async () => {
    const u = await user();
    const zip = big();
    expect(zip.length).toBeGreaterThan(LIMIT);
    const form = new FormData();
    form.set("file", new File([zip as BlobPart], "archive.zip", { type: "application/zip" }));
    const ctx = createExecutionContext();
    const direct = await worker.fetch(
      new Request(`${BASE}/v1/imports/archive`, {
        method: "POST",
        body: form,
        headers: { authorization: `Bearer ${u.token}` },
      }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(direct.status).toBe(413);

    const slot = await send(u, "POST", "/v1/imports/archive/uploads", JSON.stringify({ size: zip.length }));
    expect(slot.status, JSON.stringify(slot.body)).toBe(200);
    expect(slot.body.id).toMatch(/^[0-9a-f]{24}$/);
    expect(slot.body.put_link).toMatch(/^http:\/\/notex\.test\/v1\/imports\/archive\/uploads\//);

    // Not yet there: the preview says so and keeps nothing.
    const early = await send(u, "POST", `/v1/imports/archive/${slot.body.id}/received`);
    expect(early.status).toBe(404);
    expect(early.body.message).toBe("The archive has not arrived yet: send it to the upload link first.");

    // The link is the authority (no session), for that size and no more.
    expect(
      (await send(null, "PUT", `${slot.body.put_link.replace(/sig=[0-9a-f]+/, "sig=00")}`, zip, "application/zip"))
        .status,
    ).toBe(403);
    const put = await send(null, "PUT", slot.body.put_link, zip, "application/zip");
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    // Someone else cannot preview it (the key holds its owner).
    expect((await send(await user(), "POST", `/v1/imports/archive/${slot.body.id}/received`)).status).toBe(404);
    const preview = await send(u, "POST", `/v1/imports/archive/${slot.body.id}/received`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.counts).toEqual({ posts: 3, replies: 2, media: 1, skipped: 4 });

    const started = await send(
      u,
      "POST",
      `/v1/imports/archive/${preview.body.id}/start`,
      JSON.stringify({ profile: "keep" }),
    );
    expect(started.status).toBe(200);
    await drainJobs();
    const job = await send(u, "GET", `/v1/imports/jobs/${started.body.job.id}`);
    expect(job.body).toMatchObject({ state: "done", done: 5 });
  });

  it("refuses a size over the archive cap, a PUT bigger than the link allows, and a bad link", async () => {
    const u = await user();
    const over = await send(u, "POST", "/v1/imports/archive/uploads", JSON.stringify({ size: 3 * 1024 ** 3 }));
    expect(over.status).toBe(413);
    expect((await send(u, "POST", "/v1/imports/archive/uploads", JSON.stringify({ size: 0 }))).status).toBe(422);
    const slot = await send(u, "POST", "/v1/imports/archive/uploads", JSON.stringify({ size: 1000 }));
    const put = await send(null, "PUT", slot.body.put_link, new Uint8Array(5000), "application/zip");
    expect(put.status).toBe(413);
    expect(
      (
        await send(
          null,
          "PUT",
          "/v1/imports/archive/uploads/1/nothing?exp=1&max=1&sig=0",
          new Uint8Array(10),
          "application/zip",
        )
      ).status,
    ).toBe(400);
    expect((await env.IMAGES.list({ prefix: `imports/${u.id}/` })).objects).toEqual([]);
  });
});
