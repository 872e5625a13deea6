// The kinds of interaction a person has with a piece of content (a note, a reply, an x-folder),
// each described once here. A kind's table comes from `userOnContent()` in db/schema/social.ts,
// which gives it the derived note_id / reply_id / folder_id foreign keys with ON DELETE CASCADE
// (decision 015): deleting the content takes the kind's rows along, with no code per kind.
// Account deletion and the export walk `MARKS`, and the routes and the service for a private
// on/off mark are built from a kind's entry (interactions.service.ts, interactions.routes.ts), so
// a new private mark is a table, an entry here, a mount in api.ts, an entry in app/lib/toggle.ts
// (its menu button) and its form's action route (decision 021 lists the files).
import type { ColumnBaseConfig } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { bookmarks, likes, reports } from "../../db/schema/social";
import { LIKE, type RowKind } from "./counted";

/**
 * A mark's table as userOnContent() builds it (any table name): the columns the shared service,
 * account deletion and the export use.
 */
export type MarkTable = SQLiteTable & {
  userId: Column<number, "number", "SQLiteInteger">;
  kind: Column<string, "string", "SQLiteText">;
  targetId: Column<number, "number", "SQLiteInteger">;
  createdAt: Column<number, "number", "SQLiteInteger">;
};
type Column<D, T extends "number" | "string", C extends string> = SQLiteColumn<
  ColumnBaseConfig<T, C> & { data: D; notNull: true }
>;

/**
 * A private on/off mark on content: only its owner sees it, it moves no counter and sends no
 * notice (a bookmark). `state` is the word the API answers it under (`{ bookmarked: true }`),
 * `file` the export's file of the person's marks of this kind.
 */
export interface MarkKind<S extends string = string> {
  table: MarkTable;
  state: S;
  file: string;
}

export const BOOKMARK: MarkKind<"bookmarked"> = { table: bookmarks, state: "bookmarked", file: "bookmarks.json" };

/** Every private mark: account deletion drains them and the export writes them. */
export const MARKS: MarkKind[] = [BOOKMARK];

/**
 * A counted interaction with a table of its own (interactions/counted.ts: its notice, Mastodon
 * type, activity, state word and counter), with that table: rows.service.ts writes it, counted
 * on its content by the table's triggers, and rows.action.ts delivers it.
 */
export interface RowEntry<K extends RowKind = RowKind> {
  kind: K;
  table: MarkTable;
}

export const LIKES: RowEntry<typeof LIKE> = { kind: LIKE, table: likes };

/** Every counted interaction with a table of its own: the inbox and the outbox walk them. */
export const ROWS: RowEntry[] = [LIKES];

/**
 * Every table of rows about a piece of content: each must go with its content by the schema's
 * cascade (tests/unit/interaction-kinds.test.ts reads that from the migrated database). Counted
 * interactions are public (rows.service.ts), reports go to moderators (reports.service.ts).
 */
export const CONTENT_TABLES = [...ROWS.map((r) => r.table), reports, ...MARKS.map((k) => k.table)];
