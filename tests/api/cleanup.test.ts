// Issue 14 §6: the cron trigger's cleanup jobs, run through the worker's own `scheduled` handler
// on real rows and R2 objects.
import { createScheduledController, env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ORPHAN_CURSOR_KEY, READ_NOTI_TTL_MS, SLOT_TTL_MS } from "../../worker/features/cleanup/cleanup.service";
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
const report = (lines: Record<string, unknown>[], job: string) => lines.find((l) => l.job === job);

afterEach(() => vi.restoreAllMocks());

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
    expect(report(await runCron(), "r2-orphans")).toMatchObject({ removed: 0 });
    for (const k of orphans) expect(await objectExists(k)).toBe(true);

    // Two hours on, the whole bucket, however many runs it takes (each reads a few list pages).
    const later = Date.now() + 2 * 60 * 60 * 1000;
    let removed = 0;
    for (let run = 0; run < 20; run++) {
      vi.spyOn(Date, "now").mockReturnValue(later);
      const r = report(await runCron(), "r2-orphans") as { removed: number; done: boolean };
      removed += r.removed;
      if (r.done) break;
    }
    expect(removed).toBeGreaterThanOrEqual(orphans.length);
    for (const k of orphans) expect(await objectExists(k)).toBe(false);
    expect(await objectExists(kept)).toBe(true);
    expect(await env.SESSIONS.get(ORPHAN_CURSOR_KEY)).toBeNull();
  });

  it("trims read notifications older than 90 days; unread and recent ones stay, counters unchanged", async () => {
    const [a, b] = [await user(), await user()];
    const old = Date.now() - READ_NOTI_TTL_MS - DAY;
    const ins = (createdAt: number, rowid: number) =>
      env.DB.prepare(
        "insert into notifications (user_id, actor_id, action, tblname, rowid, created_at) values (?, ?, 'like', 'notes', ?, ?) returning id",
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
    expect((report(lines, "read-notifications")?.removed as number) >= 1).toBe(true);
    const ids = (
      await env.DB.prepare("select id from notifications where user_id = ? order by id")
        .bind(a.id)
        .all<{ id: number }>()
    ).results.map((r) => r.id);
    expect(ids).toEqual([readRecent?.id, unreadOld?.id]);
    expect(readOld?.id).toBeDefined();
    expect((await env.DB.prepare("select noti_num from users where id = ?").bind(a.id).first())?.noti_num).toBe(1);
  });
});
