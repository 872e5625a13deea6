// Import jobs: work too long for a request (thousands of follows, an archive's posts) done by the
// queue consumer, a chunk of rows per message, as Mastodon's bulk_imports. The job and its rows live
// in D1 (import_jobs, import_rows), so a restart loses nothing: the consumer resumes at the job's
// cursor, and the hourly cron sends a job that stopped moving again (jobs.consumer.ts).
//
// How a new kind of import plugs in:
//  1. Write its row work as an ImportKind (kinds.ts): `row(ctx, job, data)` does one row through
//     the same action every other door calls and answers { ok, target? } or { ok: false, reason };
//     it must be idempotent (a chunk may run twice). `prune` only if "overwrite" means anything.
//     A row that carries `line` (its place in the file) is named by it in the failures list.
//  2. Name it in KINDS (kinds.ts) with its chunk size and title; its module is loaded by the consumer only.
//  3. In the request: check the upload whole first (bad input: a 4xx, nothing written), then
//     `startJob(c, { kind, mode, fileName, rows })` writes the job and its rows in one batch and sends
//     the first message. The progress page (/settings/import/jobs/:id), cancel, the failures list
//     and the notification when done come with it.
import type { Context } from "hono";
import { newId } from "../../lib/ids";
import { bindingOf } from "../../db/plan";
import { namedRead, readOne } from "../../db/reads";
import type { AppEnv, DB, Env } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { siteOriginOf } from "../federation/context";
import type { JobView } from "./jobs.view";
import { KINDS } from "./kinds";

/** A queue message: work on the job's rows from `from` (at its total: the overwrite's removals, then the end). */
export interface JobMessage {
  job: number;
  from: number;
}

/** At most this many rows in one job (Mastodon's own limit is 20,000 a file). */
export const MAX_ROWS = 20_000;
/** Rows go into D1 as one JSON array per statement, each under D1's 2 MB value limit. */
const ROWS_JSON_BYTES = 900_000;
/** The failures a job keeps with their reasons (the count goes on). */
export const KEPT_FAILURES = 200;

/** Sends a job's next message (no queue binding: nothing runs, as for federation deliveries). */
export const sendStep = (env: Env, message: JobMessage) =>
  env.IMPORT_QUEUE?.send(message, { contentType: "json" }) ?? Promise.resolve();

/** JSON arrays of rows, each small enough for one bound value. */
function rowSlices(rows: unknown[]): { start: number; json: string }[] {
  const out: { start: number; json: string }[] = [];
  let part: string[] = [];
  let bytes = 0;
  let start = 0;
  rows.forEach((row, i) => {
    const json = JSON.stringify(row);
    if (part.length && bytes + json.length > ROWS_JSON_BYTES) {
      out.push({ start, json: `[${part.join(",")}]` });
      part = [];
      bytes = 0;
      start = i;
    }
    part.push(json);
    bytes += json.length + 1;
  });
  if (part.length) out.push({ start, json: `[${part.join(",")}]` });
  return out;
}

/**
 * A new job with its rows, written in one batch, and its first message sent. `failures`: rows the
 * upload's own check already refused (a duplicate, an address that is no address): kept apart as
 * the job's refusals, outside its total, as Mastodon's import counts only the rows it will import.
 */
export async function startJob(
  c: Context<AppEnv>,
  uid: number,
  job: { kind: string; mode: "merge" | "overwrite"; fileName: string; rows: unknown[]; failures?: JobView["failures"] },
): Promise<JobView> {
  if (!KINDS[job.kind]) throw new AppError(400, "invalid_input", "Unknown kind of import.");
  if (job.rows.length > MAX_ROWS)
    throw new AppError(413, "too_many", `At most ${MAX_ROWS.toLocaleString("en")} rows in one import.`);
  const db = c.var.db;
  const d1 = bindingOf(db);
  const failures = job.failures ?? [];
  // The job's id is made here, so its rows name it in the same batch.
  const id = newId();
  await d1.batch([
    d1
      .prepare(
        `insert into import_jobs (id, user_id, kind, mode, file_name, origin, total, refused, refusals)
         values (?9, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
      )
      .bind(
        uid,
        job.kind,
        job.mode,
        job.fileName.slice(0, 200),
        siteOriginOf(c.env, c.req.url),
        job.rows.length,
        failures.length,
        JSON.stringify(failures.slice(0, KEPT_FAILURES)),
        id,
      ),
    ...rowSlices(job.rows).map(({ start, json }) =>
      d1
        .prepare(
          `insert into import_rows (job_id, n, data)
           select ?1, ?2 + key, value from json_each(?3)`,
        )
        .bind(id, start, json),
    ),
  ]);
  await sendStep(c.env, { job: id, from: 0 });
  return readOne(db, jobRead(db, uid, id));
}

const COLUMNS = `id, kind, mode, state, file_name, total, done, failed, failures, refused, refusals, created_at, finished_at`;

type JobRow = Omit<JobView, "failures" | "refusals" | "title"> & { failures: string; refusals: string };

const view = (r: JobRow): JobView => ({
  ...r,
  title: KINDS[r.kind]?.title ?? r.kind,
  failures: JSON.parse(r.failures) as JobView["failures"],
  refusals: JSON.parse(r.refusals) as JobView["refusals"],
});

/** One of the person's jobs (ownership in the query: someone else's is not found). */
export const jobRead = (db: DB, uid: number, id: number) =>
  namedRead(
    { job: bindingOf(db).prepare(`select ${COLUMNS} from import_jobs where id = ?1 and user_id = ?2`).bind(id, uid) },
    ({ job }) => {
      const row = job.results[0] as JobRow | undefined;
      if (!row) throw notFound("Import not found");
      return view(row);
    },
  );

/** The person's latest jobs, newest first (import_jobs_user_created_idx). */
export const jobsRead = (db: DB, uid: number, limit = 10) =>
  namedRead(
    {
      jobs: bindingOf(db)
        .prepare(
          `select ${COLUMNS} from import_jobs where user_id = ?1 order by created_at desc, id desc limit ${limit}`,
        )
        .bind(uid),
    },
    ({ jobs }) => (jobs.results as JobRow[]).map(view),
  );

/** Stops a job that is still queued or running; its rows go. The consumer checks the state before each chunk. */
export async function cancelJob(db: DB, uid: number, id: number): Promise<JobView> {
  const now = Date.now();
  const d1 = bindingOf(db);
  await d1.batch([
    d1
      .prepare(
        `update import_jobs set state = 'cancelled', finished_at = ?3, updated_at = ?3
         where id = ?1 and user_id = ?2 and state in ('queued', 'running')`,
      )
      .bind(id, uid, now),
    d1
      .prepare(
        `delete from import_rows where job_id = ?1
         and exists (select 1 from import_jobs where id = ?1 and user_id = ?2 and state = 'cancelled')`,
      )
      .bind(id, uid),
  ]);
  return readOne(db, jobRead(db, uid, id));
}
