// Scheduled cleanup (issue 14), run by the cron trigger in wrangler.toml through worker/index.ts's
// `scheduled` handler. Every job is bounded per run (a run must finish well inside the cron
// limits and bill few rows), reports what it removed as one JSON log line, and returns it.
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { uploads } from "../../db/schema/notes";
import { notifications } from "../../db/schema/social";
import { runBatch } from "../../db/client";
import { cronState } from "../../db/schema/jobs";
import type { DB, Env } from "../../env";
import { expireOAuth, OAUTH_JOB } from "../mastodon/oauth.cleanup";

export const SLOT_TTL_MS = 24 * 60 * 60 * 1000;
export const READ_NOTI_TTL_MS = 90 * 24 * 60 * 60 * 1000;
/** An object younger than this may belong to a slot whose row a replica has not seen yet. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;
/**
 * An uploaded archive staged for import (imports/<uid>/…) has no upload row: it goes once its
 * import has had a day to run, so an archive started or abandoned leaves nothing behind.
 */
export const STAGED_GRACE_MS = 24 * 60 * 60 * 1000;
const graceOf = (key: string) => (key.startsWith("imports/") ? STAGED_GRACE_MS : ORPHAN_GRACE_MS);
/**
 * What one run may touch: a run must finish well inside the cron limits and bill few rows. Slots
 * per run; R2 list pages (of `listPage` keys) per run; notification windows (of `notiWindow` rows,
 * at most 5,000 rows a run). Tests shrink these to see a job resume across runs.
 */
export const LIMITS = { slots: 200, listPage: 1000, listPages: 5, notiWindow: 1000, notiWindows: 5, fedKv: 1000 };
export const SLOT_JOB = "upload-slots";
export const LOOSE_JOB = "loose-uploads";
export const ORPHAN_JOB = "r2-orphans";
export const NOTI_JOB = "read-notifications";
export const FED_KV_JOB = "federation-kv";
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
    .limit(LIMITS.slots);
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
  return { job: SLOT_JOB, removed: gone.length, completed: done.length };
}

/**
 * Images reserved ahead of their note (POST /v1/uploads) that no note took within 24 h: the
 * composer was closed, or the note never saved. Row and object go. Read along the partial index
 * of loose slots, oldest first, at most LIMITS.slots a run; the next run takes the rest.
 */
export async function removeLooseUploads(env: Env, db: DB, now: number): Promise<JobReport> {
  const loose = await db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(isNotNull(uploads.unattachedSince), lt(uploads.unattachedSince, now - SLOT_TTL_MS)))
    .orderBy(asc(uploads.unattachedSince))
    .limit(LIMITS.slots);
  const keys = loose.map((s) => s.key);
  // Only rows still loose: a note that took one since the read keeps it.
  const removed = (await runBatch(
    db,
    chunks(keys, IN_CHUNK).map((ks) =>
      db
        .delete(uploads)
        .where(and(inArray(uploads.key, ks), isNotNull(uploads.unattachedSince)))
        .returning({ key: uploads.key }),
    ),
  )) as { key: string }[][];
  const gone = removed.flat().map((r) => r.key);
  if (gone.length) await env.IMAGES.delete(gone);
  return { job: LOOSE_JOB, removed: gone.length, more: loose.length === LIMITS.slots };
}

/** A job's resume point (cron_state), or null to start from the beginning. */
async function resumeAt(db: DB, job: string): Promise<string | null> {
  const [row] = await db.select({ value: cronState.value }).from(cronState).where(eq(cronState.job, job)).limit(1);
  return row?.value ?? null;
}

function saveResume(db: DB, job: string, value: string | null, now: number) {
  if (value === null) return db.delete(cronState).where(eq(cronState.job, job));
  return db
    .insert(cronState)
    .values({ job, value, updatedAt: now })
    .onConflictDoUpdate({ target: cronState.job, set: { value, updatedAt: now } });
}

/**
 * R2 objects no upload row points at (every stored image has one: notes, avatars, covers and
 * logos all reserve a slot first, and deleting an image removes both). Pages through the bucket in
 * key order, a few list pages per run, resuming after the last key the previous run checked (kept
 * in D1's cron_state: a key, unlike a list cursor, never expires).
 */
export async function sweepOrphanObjects(env: Env, db: DB, now: number): Promise<JobReport> {
  let after = (await resumeAt(db, ORPHAN_JOB)) ?? undefined;
  let scanned = 0;
  let done = false;
  const removedKeys: string[] = [];
  for (let page = 0; page < LIMITS.listPages; page++) {
    const list = await env.IMAGES.list({ limit: LIMITS.listPage, startAfter: after });
    const old = list.objects.filter((o) => o.uploaded.getTime() < now - graceOf(o.key)).map((o) => o.key);
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
    after = list.objects.at(-1)?.key ?? after;
    if (!list.truncated) {
      done = true;
      break;
    }
  }
  // The next run continues from here; a finished pass starts over from the first key.
  await saveResume(db, ORPHAN_JOB, done ? null : (after ?? null), now);
  return { job: ORPHAN_JOB, removed: removedKeys.length, scanned, keys: removedKeys.slice(0, 20), done };
}

/**
 * Read notifications (at or before the person's noti_seen) older than 90 days. Unread ones stay
 * whatever their age, and the unread counter does not move: it counts only rows after noti_seen.
 * The table is walked in id order (ids grow with time) a window at a time from where the last run
 * stopped, so a run reads a bounded number of rows however many old unread ones it must keep
 * passing; a window that reaches rows newer than 90 days ends the pass, and the next starts over.
 */
export async function trimReadNotifications(db: DB, now: number): Promise<JobReport> {
  const cutoff = now - READ_NOTI_TTL_MS;
  let after = Number((await resumeAt(db, NOTI_JOB)) ?? 0);
  let removed = 0;
  let done = false;
  for (let i = 0; i < LIMITS.notiWindows; i++) {
    const window = await db
      .select({ id: notifications.id, createdAt: notifications.createdAt })
      .from(notifications)
      .where(gt(notifications.id, after))
      .orderBy(asc(notifications.id))
      .limit(LIMITS.notiWindow);
    const last = window.at(-1);
    if (!last) {
      done = true;
      break;
    }
    const res = await db.delete(notifications).where(
      inArray(
        notifications.id,
        sql`(select n.id from notifications n join users u on u.id = n.user_id
              where n.id > ${after} and n.id <= ${last.id} and n.created_at < ${cutoff} and n.id <= u.noti_seen)`,
      ),
    );
    removed += res.meta.changes ?? 0;
    after = last.id;
    if (window.length < LIMITS.notiWindow || window.some((n) => n.createdAt >= cutoff)) {
      done = true;
      break;
    }
  }
  await saveResume(db, NOTI_JOB, done ? null : String(after), now);
  return { job: NOTI_JOB, removed, done };
}

/**
 * Fedify's key-value rows whose TTL has passed (fetched documents, inbox idempotence marks,
 * circuit-breaker state): they already read as missing (worker/features/federation/kv.ts), this
 * takes them out of the table, oldest first along fed_kv_expires_idx, at most LIMITS.fedKv a run.
 * Rows without a TTL (the instance actor's keys) are never touched.
 */
export async function expireFederationKv(env: Env, now: number): Promise<JobReport> {
  const res = await env.DB.prepare(
    `delete from fed_kv where key in (select key from fed_kv where expires_at is not null and expires_at <= ?
     order by expires_at limit ?)`,
  )
    .bind(now, LIMITS.fedKv)
    .run();
  const removed = res.meta.changes ?? 0;
  return { job: FED_KV_JOB, removed, more: removed === LIMITS.fedKv };
}

/** Every job, each on its own (one failing does not stop the others); logs and returns the reports. */
export async function runCleanup(env: Env, db: DB, now = Date.now()): Promise<JobReport[]> {
  const jobs: [string, () => Promise<JobReport>][] = [
    [SLOT_JOB, () => expireUploadSlots(env, db, now)],
    [LOOSE_JOB, () => removeLooseUploads(env, db, now)],
    [ORPHAN_JOB, () => sweepOrphanObjects(env, db, now)],
    [NOTI_JOB, () => trimReadNotifications(db, now)],
    [FED_KV_JOB, () => expireFederationKv(env, now)],
    [OAUTH_JOB, () => expireOAuth(db, now)],
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
