// The queue's side of import jobs (jobs.ts): a message names a job and the row to start at; the
// consumer reads the job and that chunk of rows in one batch, does each row through its kind, and
// moves the job's cursor and counts only if the cursor is still where the chunk started. A chunk
// delivered twice (at-least-once) is then done twice, harmlessly (rows are idempotent), and counted
// once; the duplicate sends nothing further. A job cancelled meanwhile is left as it is.
import { dbFor } from "../../db/client";
import { bindingOf } from "../../db/plan";
import { namedRead, readOne } from "../../db/reads";
import type { DB, Env } from "../../env";
import type { ActionContext } from "../federation/federate";
import { type JobMessage, KEPT_FAILURES, sendStep } from "./jobs";
import { isLive } from "./jobs.view";
import { type JobInfo, KINDS, type RowResult } from "./kinds";

/** Tries of a message before its job is marked failed (a D1 or code fault, not a row's). */
const MAX_ATTEMPTS = 5;
/** A live job not moved for this long is sent again by the cron (its message was lost). */
export const STALLED_MS = 10 * 60 * 1000;
/** Removals per message in an overwrite's last step. */
const PRUNE_CHUNK = 50;

const log = (line: Record<string, unknown>) => console.error(JSON.stringify(line));

type JobRow = JobInfo & { state: string; cursor: number; failures: string; done: number; failed: number };

/** The job and the rows of its chunk: one round trip. */
function chunkRead(db: DB, id: number, from: number, size: number) {
  const d1 = bindingOf(db);
  return namedRead(
    {
      job: d1
        .prepare(
          `select id, user_id as userId, kind, mode, origin, total, state, cursor, failures, done, failed
           from import_jobs where id = ?1`,
        )
        .bind(id),
      rows: d1
        .prepare("select n, data from import_rows where job_id = ?1 and n >= ?2 and n < ?3 order by n")
        .bind(id, from, from + size),
    },
    ({ job, rows }) => ({
      job: (job.results[0] as unknown as JobRow | undefined) ?? null,
      rows: rows.results as unknown as { n: number; data: string }[],
    }),
  );
}

/** What an action needs, for work with no request behind it. */
const contextFor = (env: Env, db: DB, origin: string): ActionContext => ({
  db,
  env,
  origin,
  inbound: false,
  after: (what, work) =>
    work().then(
      () => undefined,
      (e) => log({ t: "imports.after", what, error: String(e) }),
    ),
});

/** A row's number for the failures list: its own `line` in the file if it has one. */
const rowNumber = (data: unknown, n: number) =>
  typeof data === "object" && data !== null && "line" in data && Number.isInteger(data.line)
    ? Number(data.line)
    : n + 1;

/** A row's own short name for the failures list (the address, the URL). */
const itemOf = (data: unknown) =>
  String(typeof data === "object" && data !== null && "item" in data ? (data as { item: unknown }).item : data).slice(
    0,
    200,
  );

/** One message's work. */
export async function step(env: Env, message: JobMessage): Promise<void> {
  const db = dbFor(env.DB);
  const { job: peek } = await readOne(
    db,
    namedRead(
      { job: bindingOf(db).prepare("select kind from import_jobs where id = ?1").bind(message.job) },
      ({ job }) => ({ job: job.results[0] as { kind: string } | undefined }),
    ),
  );
  const entry = peek && KINDS[peek.kind];
  if (!entry) return;
  const { job, rows } = await readOne(db, chunkRead(db, message.job, message.from, entry.chunk));
  // Cancelled, finished, or this chunk was already counted (a duplicate delivery): nothing to do.
  if (!job || !isLive(job.state) || job.cursor !== message.from) return;
  const kind = await entry.load();
  const ctx = contextFor(env, db, job.origin);
  if (message.from >= job.total) {
    const removed = job.mode === "overwrite" && kind.prune ? await kind.prune(ctx, job, PRUNE_CHUNK) : 0;
    if (removed >= PRUNE_CHUNK) {
      await env.DB.prepare("update import_jobs set updated_at = ?2 where id = ?1").bind(job.id, Date.now()).run();
      await sendStep(env, message);
    } else await finish(db, job);
    return;
  }
  const datas = rows.map((row) => JSON.parse(row.data) as unknown);
  // A kind that writes a chunk as one batch (an archive's posts) takes the rows together.
  const answers = kind.rows ? await kind.rows(ctx, job, datas) : [];
  const results: { n: number; data: unknown; result: RowResult }[] = [];
  for (const [i, row] of rows.entries())
    results.push({ n: row.n, data: datas[i], result: answers[i] ?? (await kind.row(ctx, job, datas[i])) });
  const next = message.from + entry.chunk;
  const failures = [
    ...(JSON.parse(job.failures) as unknown[]),
    ...results.flatMap(({ n, data, result }) =>
      result.ok
        ? result.warning
          ? [{ row: rowNumber(data, n), item: itemOf(data), reason: result.warning }]
          : []
        : [{ row: rowNumber(data, n), item: itemOf(data), reason: result.reason }],
    ),
  ].slice(0, KEPT_FAILURES);
  const ok = results.filter((r) => r.result.ok).length;
  const d1 = bindingOf(db);
  const [moved] = await d1.batch([
    d1
      .prepare(
        `update import_jobs set state = 'running', cursor = ?3, done = done + ?4, failed = failed + ?5,
         failures = ?6, updated_at = ?7 where id = ?1 and cursor = ?2 and state in ('queued', 'running')`,
      )
      .bind(
        job.id,
        message.from,
        Math.min(next, job.total),
        ok,
        results.length - ok,
        JSON.stringify(failures),
        Date.now(),
      ),
    ...results.flatMap(({ n, result }) =>
      result.ok && result.target !== undefined
        ? [
            d1
              .prepare("update import_rows set target = ?3, target_kind = ?4 where job_id = ?1 and n = ?2")
              .bind(job.id, n, result.target, result.targetKind ?? "user"),
          ]
        : [],
    ),
  ]);
  // Another run of this chunk counted it first, or the job was cancelled meanwhile: stop here.
  if (!moved.meta.changes) return;
  await sendStep(env, { job: job.id, from: Math.min(next, job.total) });
}

/** The end: done, its rows gone, and the person told (a notice about the job, from themselves). */
async function finish(db: DB, job: JobRow) {
  const now = Date.now();
  const d1 = bindingOf(db);
  const finished = "(select state from import_jobs where id = ?1) = 'done'";
  await d1.batch([
    d1
      .prepare(
        `update import_jobs set state = 'done', finished_at = ?2, updated_at = ?2
         where id = ?1 and state in ('queued', 'running')`,
      )
      .bind(job.id, now),
    d1.prepare(`delete from import_rows where job_id = ?1 and ${finished}`).bind(job.id),
    // No Mastodon type matches: apps never see it (mastodon/notifications.routes.ts TYPES leaves it out).
    d1
      .prepare(
        `insert into notifications (user_id, actor_id, action, tblname, target_id, extra)
         select ?2, ?2, 'import', 'import', ?1, ?3 where ${finished} on conflict do nothing`,
      )
      .bind(job.id, job.userId, KINDS[job.kind]?.title ?? job.kind),
  ]);
}

/** The import queue's batch: each message's step; a fault is retried, and after the last try the job is marked failed. */
export async function consumeImports(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const body = message.body as JobMessage;
    try {
      if (Number.isInteger(body?.job) && Number.isInteger(body?.from)) await step(env, body);
      message.ack();
    } catch (error) {
      log({ t: "imports.step", job: body?.job, attempts: message.attempts, error: String(error) });
      if (message.attempts < MAX_ATTEMPTS) message.retry({ delaySeconds: 10 * 2 ** message.attempts });
      else {
        await env.DB.prepare(
          "update import_jobs set state = 'failed', finished_at = ?2, updated_at = ?2 where id = ?1 and state in ('queued', 'running')",
        )
          .bind(body.job, Date.now())
          .run();
        message.ack();
      }
    }
  }
}

/** The cron's part: each live job that stopped moving (its message lost) is sent again from its cursor. */
export async function resumeStalled(env: Env, now = Date.now()): Promise<number> {
  const { results } = await env.DB.prepare(
    "select id, cursor from import_jobs where state in ('queued', 'running') and updated_at < ?1 limit 100",
  )
    .bind(now - STALLED_MS)
    .all<{ id: number; cursor: number }>();
  for (const job of results) await sendStep(env, { job: job.id, from: job.cursor });
  if (results.length)
    await env.DB.prepare(`update import_jobs set updated_at = ?1 where id in (${results.map((r) => r.id).join(",")})`)
      .bind(now)
      .run();
  return results.length;
}
