import { type SQL, sql } from "drizzle-orm";
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

/**
 * A reference that a row's own (kind, id) columns already name, made visible to the database: a
 * virtual column holding the id when `when` holds (else null), with a foreign key that takes the
 * row away when what it points at is deleted. Nothing writes it; SQLite computes it.
 */
export const derivedRef = (name: string, when: SQL, id: string, to: () => AnySQLiteColumn) =>
  integer(name)
    .generatedAlwaysAs(sql`case when ${when} then ${sql.identifier(id)} end`, { mode: "virtual" })
    .references(to, { onDelete: "cascade" });
