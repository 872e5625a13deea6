// Every kind of interaction goes with its content by one rule in the schema: each table the
// shared description lists (worker/features/interactions/kinds.ts) has a foreign key with ON
// DELETE CASCADE to notes, replies and folders, read from the migrated database itself. A new
// kind whose table forgets userOnContent(), or a migration that drops a cascade, fails here.
import { env } from "cloudflare:test";
import { getTableName } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CONTENT_TABLES, MARKS } from "../../worker/features/interactions/kinds";

interface ForeignKey {
  table: string;
  from: string;
  to: string;
  on_delete: string;
}

const foreignKeys = async (table: string) =>
  (await env.DB.prepare("select * from pragma_foreign_key_list(?)").bind(table).all<ForeignKey>()).results;

const TARGETS = [
  { from: "note_id", table: "notes" },
  { from: "reply_id", table: "replies" },
  { from: "folder_id", table: "folders" },
  { from: "user_id", table: "users" },
];

describe("interaction kinds", () => {
  const names = CONTENT_TABLES.map((t) => getTableName(t));

  it("lists likes, reports and every private mark (bookmarks) once", () => {
    expect(names).toEqual(expect.arrayContaining(["likes", "reports", "bookmarks"]));
    expect(new Set(names).size).toBe(names.length);
    expect(MARKS.map((k) => getTableName(k.table))).toContain("bookmarks");
  });

  it.each(names)("%s goes with its note, reply, folder and person (ON DELETE CASCADE)", async (table) => {
    const keys = await foreignKeys(table);
    for (const target of TARGETS) {
      expect(keys, `${table}.${target.from}`).toContainEqual(
        expect.objectContaining({ from: target.from, table: target.table, to: "id", on_delete: "CASCADE" }),
      );
    }
  });
});
