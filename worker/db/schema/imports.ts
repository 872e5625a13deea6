// Long imports (worker/features/imports/jobs.ts), as Mastodon's bulk_imports and bulk_import_rows:
// a job per upload, its rows kept here until the queue consumer has worked through them.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cascadeRef, counter, createdAt, serialId } from "../columns";
import { users } from "./users";

/**
 * One import: its kind (jobs.ts KINDS), merge or overwrite, where it stands (queued, running, done,
 * cancelled, failed), how far the consumer got (`cursor`: the next row), and what it counted:
 * `total` the rows to import, each then `done` or `failed` (`failures`: the first of those, with
 * why, JSON, capped); `refused` the rows the upload's own check left out (a duplicate, a line that
 * is no address), never counted in the total, the first of them in `refusals` with why.
 */
export const importJobs = sqliteTable(
  "import_jobs",
  {
    id: serialId(),
    userId: cascadeRef("user_id", () => users.id),
    kind: text("kind").notNull(),
    mode: text("mode").notNull().default("merge"),
    state: text("state").notNull().default("queued"),
    fileName: text("file_name").notNull().default(""),
    /** The site's origin when it was asked for (activities the consumer sends are built from it). */
    origin: text("origin").notNull(),
    total: counter("total"),
    done: counter("done"),
    failed: counter("failed"),
    cursor: counter("cursor"),
    failures: text("failures").notNull().default("[]"),
    refused: counter("refused"),
    refusals: text("refusals").notNull().default("[]"),
    createdAt: createdAt(),
    /** When the consumer last moved it: a running job that stopped moving is sent again (the cron). */
    updatedAt: integer("updated_at").notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    index("import_jobs_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("import_jobs_state_updated_idx").on(t.state, t.updatedAt),
  ],
);

/**
 * A job's rows as the upload gave them (`data`, JSON), by number; `target` is what a row came to
 * (the account or post it named), which an overwrite keeps while it removes the rest.
 */
export const importRows = sqliteTable(
  "import_rows",
  {
    jobId: cascadeRef("job_id", () => importJobs.id),
    n: integer("n").notNull(),
    data: text("data").notNull(),
    target: integer("target"),
    /** What `target` is: user, note or reply. */
    targetKind: text("target_kind").notNull().default(""),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.n] })],
);
