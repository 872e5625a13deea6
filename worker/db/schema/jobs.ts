import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Where a scheduled job resumes (worker/features/cleanup): one row per job, e.g. the last R2 key
 * the orphan sweep checked. A job that pages through more than one run can hold keeps its place
 * here rather than in KV (there is no KV binding: D1 is the one store of state).
 */
export const cronState = sqliteTable("cron_state", {
  job: text("job").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
