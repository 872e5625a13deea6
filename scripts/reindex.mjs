// `npm run reindex` (local D1) or `npm run reindex -- --remote`: rebuilds the full-text search
// indexes. `wrangler d1 export` cannot export virtual tables, so a database restored from an export
// has no notes_fts, replies_fts or folders_fts (nor their *_terms lists): this drops what is left of them and runs the search
// migration again, which creates the tables and triggers and refills them from notes, replies and
// folders (another local state: `-- --persist-to DIR`). Safe to run at any time (searches see an empty index for the moment it takes).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const where = process.argv.includes("--remote") ? "--remote" : "--local";
const persistAt = process.argv.indexOf("--persist-to");
const persist = persistAt > 0 ? ["--persist-to", process.argv[persistAt + 1]] : [];
const migration = readdirSync("migrations").find((f) => f.endsWith("_search_fts.sql"));
if (!migration) throw new Error("reindex: no migrations/*_search_fts.sql");
const drop = ["notes", "replies", "folders"]
  .flatMap((t) => [
    ...["ai", "ad", "au"].map((k) => `DROP TRIGGER IF EXISTS ${t}_fts_${k};`),
    `DROP TABLE IF EXISTS ${t}_fts_terms;`,
    `DROP TABLE IF EXISTS ${t}_fts;`,
  ])
  .join("\n");
const body = readFileSync(`migrations/${migration}`, "utf8").replace(/^--> statement-breakpoint$/gm, "");
mkdirSync(".wrangler", { recursive: true });
const file = `.wrangler/reindex-${process.pid}.sql`;
writeFileSync(file, `${drop}\n${body}\n`);
try {
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", where, ...persist, "--yes", "--file", file], {
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  console.log(`reindex: search indexes rebuilt (${where.slice(2)})`);
} finally {
  rmSync(file, { force: true });
}
