// Issue 14 §6: the cron trigger's cleanup jobs, run through the worker's own `scheduled` handler
// on real rows and R2 objects.
import { createScheduledController, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  FED_KV_JOB,
  LIMITS,
  LOOSE_JOB,
  NOTI_JOB,
  ORPHAN_JOB,
  READ_NOTI_TTL_MS,
  SLOT_TTL_MS,
} from "../../worker/features/cleanup/cleanup.service";
import { user } from "../factories";
import worker from "../worker";

const DAY = 24 * 60 * 60 * 1000;
let n = 0;
const key = (uid: number) => `u/${uid}/note/${(++n).toString(16).padStart(24, "0")}.jpg`;

async function slot(uid: number, k: string, createdAt: number, uploadedAt: number | null) {
  await env.DB.prepare(
    "insert into uploads (key, user_id, purpose, content_type, max_size, expires_at, uploaded_at, created_at) values (?, ?, 'note', 'image/jpeg', 100, ?, ?, ?)",
  )
    .bind(k, uid, createdAt + 300_000, uploadedAt, createdAt)
    .run();
}
const rowExists = async (k: string) => !!(await env.DB.prepare("select 1 from uploads where key = ?").bind(k).first());
const objectExists = async (k: string) => !!(await env.IMAGES.head(k));

/** Runs the scheduled handler as the cron trigger would; answers the JSON lines it logged. */
async function runCron(): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  vi.spyOn(console, "log").mockImplementation((s: unknown) => void lines.push(String(s)));
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 * * * *" }), env);
  vi.restoreAllMocks();
  return lines.map((l) => JSON.parse(l)).filter((l) => l.t === "cron");
}
const resumePoint = async (job: string) =>
  (await env.DB.prepare("select value from cron_state where job = ?").bind(job).first<{ value: string }>())?.value ??
  null;
const report = (lines: Record<string, unknown>[], job: string) => lines.find((l) => l.job === job);

const defaults = { ...LIMITS };
afterEach(() => {
  vi.restoreAllMocks();
  Object.assign(LIMITS, defaults);
});

describe("scheduled cleanup", () => {
  it("removes upload slots never completed after 24 h (and their objects), keeps the rest", async () => {
    const a = await user();
    const old = Date.now() - SLOT_TTL_MS - 60_000;
    const [stale, fresh, done, presigned] = [key(a.id), key(a.id), key(a.id), key(a.id)];
    await slot(a.id, stale, old, null);
    await slot(a.id, fresh, Date.now() - DAY / 2, null);
    await slot(a.id, done, old, old + 1000);
    await env.IMAGES.put(done, "img");
    // A presigned (s3 mode) upload: the object arrived, the worker never heard of it.
    await slot(a.id, presigned, old, null);
    await env.IMAGES.put(presigned, "img");

    const lines = await runCron();
    expect(report(lines, "upload-slots")).toMatchObject({ removed: 1, completed: 1 });
    expect(await rowExists(stale)).toBe(false);
    expect(await rowExists(fresh)).toBe(true);
    expect(await rowExists(done)).toBe(true);
    expect(await objectExists(done)).toBe(true);
    expect(await rowExists(presigned)).toBe(true);
    expect(await objectExists(presigned)).toBe(true);
    const marked = await env.DB.prepare("select uploaded_at from uploads where key = ?").bind(presigned).first();
    expect(marked?.uploaded_at).toBeGreaterThan(0);
  });

  it("deletes R2 objects no row points at, after an hour's grace, paging the bucket across runs", async () => {
    const a = await user();
    const kept = key(a.id);
    await slot(a.id, kept, Date.now(), Date.now());
    const orphans = Array.from({ length: 3 }, () => key(a.id));
    for (const k of [kept, ...orphans]) await env.IMAGES.put(k, "img");
    // Just stored: its slot row may not have reached a replica yet, so it stays.
    expect(report(await runCron(), ORPHAN_JOB)).toMatchObject({ removed: 0 });
    for (const k of orphans) expect(await objectExists(k)).toBe(true);

    // Two hours on, the whole bucket, however many runs it takes: here one list page of two keys
    // per run, so the sweep must resume where the previous run stopped (kept in D1's cron_state).
    Object.assign(LIMITS, { listPage: 2, listPages: 1 });
    const later = Date.now() + 2 * 60 * 60 * 1000;
    let removed = 0;
    const resumes: (string | null)[] = [];
    for (let run = 0; run < 50; run++) {
      vi.spyOn(Date, "now").mockReturnValue(later);
      const r = report(await runCron(), ORPHAN_JOB) as { removed: number; done: boolean };
      removed += r.removed;
      resumes.push(await resumePoint(ORPHAN_JOB));
      if (r.done) break;
    }
    expect(resumes.length).toBeGreaterThan(1);
    expect(resumes[0]).toMatch(/^u\//);
    expect(removed).toBeGreaterThanOrEqual(orphans.length);
    for (const k of orphans) expect(await objectExists(k)).toBe(false);
    expect(await objectExists(kept)).toBe(true);
    // A finished pass leaves no resume point: the next run starts over from the first key.
    expect(await resumePoint(ORPHAN_JOB)).toBeNull();
  });

  it("trims read notifications older than 90 days; unread and recent ones stay, counters unchanged", async () => {
    const [a, b] = [await user(), await user()];
    const old = Date.now() - READ_NOTI_TTL_MS - DAY;
    const ins = (createdAt: number, rowid: number) =>
      env.DB.prepare(
        "insert into notifications (user_id, actor_id, action, tblname, target_id, created_at) values (?, ?, 'like', 'notes', ?, ?) returning id",
      )
        .bind(a.id, b.id, rowid, createdAt)
        .first<{ id: number }>();
    const readOld = await ins(old, 1);
    const readRecent = await ins(Date.now() - DAY, 2);
    // Seen up to here: the next one stays unread, however old.
    await env.DB.prepare("update users set noti_seen = ? where id = ?").bind(readRecent?.id, a.id).run();
    const unreadOld = await ins(old, 3);
    await env.DB.prepare("update users set noti_num = 1 where id = ?").bind(a.id).run();

    const lines = await runCron();
    expect((report(lines, NOTI_JOB)?.removed as number) >= 1).toBe(true);
    const ids = (
      await env.DB.prepare("select id from notifications where user_id = ? order by id")
        .bind(a.id)
        .all<{ id: number }>()
    ).results.map((r) => r.id);
    expect(ids).toEqual([readRecent?.id, unreadOld?.id]);
    expect(readOld?.id).toBeDefined();
    expect((await env.DB.prepare("select noti_num from users where id = ?").bind(a.id).first())?.noti_num).toBe(1);
  });
  it("walks notifications a bounded window at a time, resuming across runs, and starts over after a pass", async () => {
    // Ids grow with time in real use; rows the tests above backdated would end the pass early.
    await env.DB.prepare("delete from notifications").run();
    const [a, b] = [await user(), await user()];
    const old = Date.now() - READ_NOTI_TTL_MS - DAY;
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const row = await env.DB.prepare(
        "insert into notifications (user_id, actor_id, action, tblname, target_id, created_at) values (?, ?, 'like', 'notes', ?, ?) returning id",
      )
        .bind(a.id, b.id, 1000 + i, old + i)
        .first<{ id: number }>();
      ids.push(row?.id as number);
    }
    // All read.
    await env.DB.prepare("update users set noti_seen = ? where id = ?").bind(ids.at(-1), a.id).run();
    Object.assign(LIMITS, { notiWindow: 2, notiWindows: 1 });
    const runs: { removed: number; done: boolean }[] = [];
    for (let run = 0; run < 50; run++) {
      const r = report(await runCron(), NOTI_JOB) as { removed: number; done: boolean };
      runs.push(r);
      if (r.done) break;
      // Between runs the job remembers the last id it looked at.
      expect(Number(await resumePoint(NOTI_JOB))).toBeGreaterThan(0);
    }
    // Two rows a run: at least four runs for seven rows; every one removed, the pass finished.
    expect(runs.length).toBeGreaterThanOrEqual(4);
    expect(runs.every((r) => r.removed <= 2)).toBe(true);
    const left = await env.DB.prepare("select count(*) n from notifications where user_id = ?")
      .bind(a.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect(await resumePoint(NOTI_JOB)).toBeNull();
  });
  it("removes images reserved ahead of a note that no note took within 24 h, a bounded number a run", async () => {
    const a = await user();
    const png = Uint8Array.from(
      atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
      (c) => c.charCodeAt(0),
    );
    // Reserved and uploaded the way the composer does with JavaScript: slot first, PUT, note later.
    const reserve = async () => {
      const res = await a.post("/v1/uploads", { uploads: [{ file_size: png.length, file_ext: "png" }] });
      expect(res.status).toBe(201);
      const s = res.body.uploads[0] as { key: string; put_link: string; file_url: string };
      const link = new URL(s.put_link);
      const put = await a.request("PUT", `${link.pathname}${link.search}`, png as unknown as string, {
        "content-type": "image/png",
      });
      expect(put.status).toBe(200);
      return s;
    };
    const [taken, edited, ...loose] = [await reserve(), await reserve(), await reserve(), await reserve()];
    const young = await reserve();
    await a.post("/v1/notes", { label: "idea", content: "<p>pictured</p>", imgs: taken.file_url });
    const plain = await a.post("/v1/notes", { label: "idea", content: "<p>plain</p>" });
    await a.patch("/v1/notes", {
      id: plain.body.note.id,
      label: "idea",
      content: "<p>now pictured</p>",
      imgs: edited.file_url,
    });
    // A day and a bit later for all but the young one.
    const ago = SLOT_TTL_MS + 60_000;
    for (const s of [taken, edited, ...loose]) {
      await env.DB.prepare(
        "update uploads set created_at = created_at - ?, unattached_since = unattached_since - ? where key = ?",
      )
        .bind(ago, ago, s.key)
        .run();
    }

    // One slot a run: the job takes the oldest and leaves the rest for the next run.
    Object.assign(LIMITS, { slots: 1 });
    expect(report(await runCron(), LOOSE_JOB)).toMatchObject({ removed: 1, more: true });
    expect(report(await runCron(), LOOSE_JOB)).toMatchObject({ removed: 1, more: true });
    expect(report(await runCron(), LOOSE_JOB)).toMatchObject({ removed: 0, more: false });
    for (const s of loose) {
      expect(await rowExists(s.key)).toBe(false);
      expect(await objectExists(s.key)).toBe(false);
    }
    // Taken by a new note or an edit, or not a day old yet: kept, row and image.
    for (const s of [taken, edited, young]) {
      expect(await rowExists(s.key), s.key).toBe(true);
      expect(await objectExists(s.key), s.key).toBe(true);
    }
    expect((await a.get(taken.file_url)).status).toBe(200);
  });

  it("drops Fedify's key-value rows whose TTL has passed, a bounded number a run; rows without a TTL stay", async () => {
    const put = (key: string, expiresAt: number | null) =>
      env.DB.prepare("insert into fed_kv (key, value, expires_at) values (?, '1', ?)").bind(key, expiresAt).run();
    const past = Date.now() - 60_000;
    await put('["cron","old1"]', past - 2);
    await put('["cron","old2"]', past - 1);
    await put('["cron","fresh"]', Date.now() + DAY);
    await put('["cron","kept"]', null);
    Object.assign(LIMITS, { fedKv: 1 });
    expect(report(await runCron(), FED_KV_JOB)).toMatchObject({ removed: 1, more: true });
    Object.assign(LIMITS, { fedKv: 1000 });
    expect(report(await runCron(), FED_KV_JOB)?.removed).toBeGreaterThanOrEqual(1);
    const keys = (
      await env.DB.prepare("select key from fed_kv where key like '[\"cron\"%' order by key").all<{ key: string }>()
    ).results.map((r) => r.key);
    expect(keys).toEqual(['["cron","fresh"]', '["cron","kept"]']);
  });
});
