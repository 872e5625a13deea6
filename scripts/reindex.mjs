// `npm run reindex` (local D1) or `npm run reindex -- --remote`: rebuilds the full-text search
// indexes. `wrangler d1 export` cannot export virtual tables, so a database restored from an export
// has no notes_fts, replies_fts, folders_fts or users_fts (nor their *_terms lists): this drops what is left of them and runs the
// search migrations again, which creates the tables and triggers and refills them from notes, replies and
// folders (another local state: `-- --persist-to DIR`). Safe to run at any time (searches see an empty index for the moment it takes).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const where = process.argv.includes("--remote") ? "--remote" : "--local";
const persistAt = process.argv.indexOf("--persist-to");
const persist = persistAt > 0 ? ["--persist-to", process.argv[persistAt + 1]] : [];
const migrations = readdirSync("migrations").filter((f) => /_(search_fts|users_name_words)\.sql$/.test(f));
if (migrations.length !== 2) throw new Error("reindex: no migrations/*_search_fts.sql and *_users_name_words.sql");
const drop = ["notes", "replies", "folders", "users"]
  .flatMap((t) => [
    ...["ai", "ad", "au"].map((k) => `DROP TRIGGER IF EXISTS ${t}_fts_${k};`),
    `DROP TABLE IF EXISTS ${t}_fts_terms;`,
    `DROP TABLE IF EXISTS ${t}_fts;`,
  ])
  .join("\n");
const body = migrations
  .map((m) => readFileSync(`migrations/${m}`, "utf8").replace(/^--> statement-breakpoint$/gm, ""))
  .join("\n");
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
