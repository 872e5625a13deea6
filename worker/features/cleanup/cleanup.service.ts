// Scheduled cleanup (issue 14), run by the cron trigger in wrangler.toml through worker/index.ts's
// `scheduled` handler. Every job is bounded per run (a run must finish well inside the cron
// limits and bill few rows), reports what it removed as one JSON log line, and returns it.
import { and, inArray, isNull, lt, sql } from "drizzle-orm";
import { uploads } from "../../db/schema/notes";
import { notifications } from "../../db/schema/social";
import { runBatch } from "../../db/client";
import type { DB, Env } from "../../env";

export const SLOT_TTL_MS = 24 * 60 * 60 * 1000;
export const READ_NOTI_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** An object younger than this may belong to a slot whose row a replica has not seen yet. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
const SLOTS_PER_RUN = 200;
const NOTIS_PER_STATEMENT = 1000;
const NOTI_STATEMENTS_PER_RUN = 5;
const LIST_PAGE = 1000;
const LIST_PAGES_PER_RUN = 5;
/** Where the orphan sweep resumes: R2 list cursors page the bucket across runs. */
export const ORPHAN_CURSOR_KEY = "cron:r2-orphans:cursor";
const IN_CHUNK = 90; // D1 allows at most 100 bound parameters per statement

export interface JobReport {
  job: string;
  removed: number;
  [detail: string]: unknown;
}

const chunks = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/**
 * Upload slots never completed 24 h after they were handed out: the row and any object under its
 * key go. With presigned R2 URLs (UPLOAD_MODE=s3) the browser's PUT never reaches the worker, so
 * a slot whose object exists did complete: it is marked uploaded, not removed.
 */
export async function expireUploadSlots(env: Env, db: DB, now: number): Promise<JobReport> {
  const stale = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(isNull(uploads.uploadedAt), lt(uploads.createdAt, now - SLOT_TTL_MS)))
    .limit(SLOTS_PER_RUN);
  const heads = await Promise.all(stale.map((s) => env.IMAGES.head(s.key)));
  const done = stale.filter((_, i) => heads[i]).map((s) => s.key);
  const gone = stale.filter((_, i) => !heads[i]).map((s) => s.key);
  const writes = [
    ...chunks(done, IN_CHUNK).map((keys) =>
      db.update(uploads).set({ uploadedAt: now }).where(inArray(uploads.key, keys)),
    ),
    ...chunks(gone, IN_CHUNK).map((keys) => db.delete(uploads).where(inArray(uploads.key, keys))),
  ];
  await runBatch(db, writes);
  if (gone.length) await env.IMAGES.delete(gone);
  return { job: "upload-slots", removed: gone.length, completed: done.length };
}

/**
 * R2 objects no upload row points at (every stored image has one: notes, avatars, covers and
 * logos all reserve a slot first, and deleting an image removes both). Pages through the bucket
 * with list cursors, a few pages per run, resuming where the last run stopped.
 */
export async function sweepOrphanObjects(env: Env, db: DB, now: number): Promise<JobReport> {
  let cursor = (await env.SESSIONS.get(ORPHAN_CURSOR_KEY)) ?? undefined;
  let scanned = 0;
  const removedKeys: string[] = [];
  for (let page = 0; page < LIST_PAGES_PER_RUN; page++) {
    const list = await env.IMAGES.list({ limit: LIST_PAGE, cursor });
    const old = list.objects.filter((o) => o.uploaded.getTime() < now - ORPHAN_GRACE_MS).map((o) => o.key);
    scanned += list.objects.length;
    if (old.length) {
      const found = (await runBatch(
        db,
        chunks(old, IN_CHUNK).map((keys) =>
          db.select({ key: uploads.key }).from(uploads).where(inArray(uploads.key, keys)),
        ),
      )) as { key: string }[][];
      const known = new Set(found.flat().map((r) => r.key));
      const orphans = old.filter((k) => !known.has(k));
      if (orphans.length) await env.IMAGES.delete(orphans);
      removedKeys.push(...orphans);
    }
    cursor = list.truncated ? list.cursor : undefined;
    if (!cursor) break;
  }
  // The next run continues from here; a finished pass starts over from the first key.
  if (cursor) await env.SESSIONS.put(ORPHAN_CURSOR_KEY, cursor);
  else await env.SESSIONS.delete(ORPHAN_CURSOR_KEY);
  return { job: "r2-orphans", removed: removedKeys.length, scanned, keys: removedKeys.slice(0, 20), done: !cursor };
}

/**
 * Read notifications (at or before the person's noti_seen) older than 90 days. Unread ones stay
 * whatever their age, and the unread counter does not move: it counts only rows after noti_seen.
 */
export async function trimReadNotifications(db: DB, now: number): Promise<JobReport> {
  let removed = 0;
  for (let i = 0; i < NOTI_STATEMENTS_PER_RUN; i++) {
    const res = await db.delete(notifications).where(
      inArray(
        notifications.id,
        sql`(select n.id from notifications n join users u on u.id = n.user_id
              where n.created_at < ${now - READ_NOTI_TTL_MS} and n.id <= u.noti_seen
              order by n.id limit ${NOTIS_PER_STATEMENT})`,
      ),
    );
    const n = res.meta.changes ?? 0;
    removed += n;
    if (n < NOTIS_PER_STATEMENT) break;
  }
  return { job: "read-notifications", removed };
}

/** Every job, each on its own (one failing does not stop the others); logs and returns the reports. */
export async function runCleanup(env: Env, db: DB, now = Date.now()): Promise<JobReport[]> {
  const jobs: [string, () => Promise<JobReport>][] = [
    ["upload-slots", () => expireUploadSlots(env, db, now)],
    ["r2-orphans", () => sweepOrphanObjects(env, db, now)],
    ["read-notifications", () => trimReadNotifications(db, now)],
  ];
  const reports: JobReport[] = [];
  for (const [job, run] of jobs) {
    try {
      reports.push(await run());
    } catch (e) {
      reports.push({ job, removed: 0, error: e instanceof Error ? e.message : String(e) });
    }
    console.log(JSON.stringify({ t: "cron", ...reports[reports.length - 1] }));
  }
  return reports;
}
