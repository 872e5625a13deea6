// The FTS5 tables (created by the hand-written migration *_search_fts.sql, not by drizzle-kit: it
// has no virtual tables), declared here for queries only. Outside worker/db/schema on purpose, so
// drizzle-kit never tries to create or drop them.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const notesFts = sqliteTable("notes_fts", { rowid: integer("rowid").notNull(), txt: text("txt") });
export const repliesFts = sqliteTable("replies_fts", { rowid: integer("rowid").notNull(), txt: text("txt") });
export const foldersFts = sqliteTable("folders_fts", {
  rowid: integer("rowid").notNull(),
  name: text("name"),
  descr: text("descr"),
});
