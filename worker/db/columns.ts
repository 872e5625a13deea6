import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, integer } from "drizzle-orm/sqlite-core";

// Times are unix milliseconds: sortable, compact, and what Date.now() gives on the edge.
export const createdAt = () =>
  integer("created_at").notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const counter = (name: string) => integer(name).notNull().default(0);

/** A required reference to another row (an owner, a parent): deleting that row deletes this one. */
export const cascadeRef = (name: string, to: () => AnySQLiteColumn) =>
  integer(name).notNull().references(to, { onDelete: "cascade" });

/** A table's own id: an integer that SQLite assigns, never reused (AUTOINCREMENT). */
export const serialId = () => integer("id").primaryKey({ autoIncrement: true });
