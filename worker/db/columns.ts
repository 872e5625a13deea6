import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

// Times are unix milliseconds: sortable, compact, and what Date.now() gives on the edge.
export const createdAt = () =>
  integer("created_at").notNull().default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const counter = (name: string) => integer(name).notNull().default(0);
