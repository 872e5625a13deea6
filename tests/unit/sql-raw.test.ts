// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the lists below quote source code as written, template literals included.
// Values never reach SQL as text: every request value, and every value of ours that a statement
// compares with, is a bound parameter or a fixed SQL fragment. `sql.raw` is left only for what
// cannot be bound (table and column names, a statement's LIMIT), each
// listed here with why; a new one fails this test until it is judged and listed.
import { describe, expect, it } from "vitest";
import { SOURCES } from "./sources";

/** Each non-literal sql.raw that stays: file → the argument as written, and why it cannot be bound. */
const JUDGED: Record<string, string[]> = {
  // Constants of the module (numbers), kept literal so a plan's LIMIT is known to the planner.
  "worker/features/search/search.people.ts": ["String(SUGGEST_WINDOW)"],
  "worker/features/search/search.tags.ts": ["String(TAG_HITS)"],
  "worker/features/search/search.service.ts": [
    '`"${fts}_terms"`',
    '`"${fts}"`',
    "String(EXPANSIONS)",
    "String(MAX_RANKED)",
  ],
  "worker/features/feed/feed.service.ts": ["String(MERGE_MAX)"],
  // The thread's fixed fan-out and depth, and the names of its own CTEs and table aliases.
  "worker/features/replies/thread.service.ts": ["alias", "level", "String(THREAD_CHILDREN)", "String(THREAD_DEPTH)"],
  // Table and column names, from the schema.
  "worker/features/content/content.ts": ['`"${getTableName(t)}"`'],
  "worker/features/accounts/delete.service.ts": ["table", "key", "key", "table"],
  // A generated column's definition (DDL takes no bound parameters): the schema's constant kinds.
  "worker/db/schema/social.ts": ["folderKinds"],
};

describe("sql.raw", () => {
  it("carries no interpolated value: only the judged identifiers and constants remain", () => {
    const found: Record<string, string[]> = {};
    for (const [file, text] of SOURCES) {
      for (const m of text.matchAll(/sql\.raw\(\s*((?:[^()]|\([^()]*\))*)\)/g)) {
        const arg = m[1].trim();
        if (/^"[^"]*"$|^'[^']*'$/.test(arg)) continue; // a plain string literal: fixed SQL
        found[file] = [...(found[file] ?? []), arg];
      }
    }
    const sorted = (o: Record<string, string[]>) =>
      Object.fromEntries(Object.entries(o).map(([file, args]) => [file, [...args].sort()]));
    expect(sorted(found)).toEqual(sorted(JUDGED));
  });
});
