// The bench network as SQL: multi-row INSERTs in files of about 20 MB, loaded straight into the
// migrated local D1 database (generate.mjs builds the rows).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";

/** A value as an SQL literal. */
export const sqlValue = (v) =>
  v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;

/**
 * Writes `tables` ({ name: { cols, rows } }) as INSERTs of 500 rows, in `order` (foreign keys:
 * users first), then the `tail` statements; answers the files written, in the order to apply them.
 */
export function writeSqlFiles(dir, tables, order, tail) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = [];
  let chunk = [];
  let size = 0;
  const flush = () => {
    if (!chunk.length) return;
    const f = `${dir}/${String(files.length).padStart(3, "0")}.sql`;
    writeFileSync(f, chunk.join("\n"));
    files.push(f);
    chunk = [];
    size = 0;
  };
  for (const name of order) {
    const t = tables[name];
    if (!t) continue;
    for (let i = 0; i < t.rows.length; i += 500) {
      const rows = t.rows.slice(i, i + 500).map((r) => `(${r.map(sqlValue).join(",")})`);
      const stmt = `INSERT INTO ${name} (${t.cols.join(",")}) VALUES ${rows.join(",")};`;
      chunk.push(stmt);
      size += stmt.length;
      if (size > 20_000_000) flush();
    }
  }
  chunk.push(...tail);
  flush();
  return files;
}

/**
 * wrangler's local `d1 execute --file` takes minutes for a few MB; the migrated database is a plain
 * SQLite file under the persist dir, so the rows go straight into it (python3's sqlite3 is on the machine).
 */
export function loadIntoSqlite(persist, files) {
  const dbDir = `${persist}/v3/d1/miniflare-D1DatabaseObject`;
  const dbFile = readdirSync(dbDir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!dbFile) throw new Error(`no migrated database under ${dbDir}: apply migrations first`);
  execFileSync(
    "python3",
    [
      "-c",
      "import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\nfor f in sys.argv[2:]:\n  db.executescript(open(f).read())\ndb.commit()",
      `${dbDir}/${dbFile}`,
      ...files,
    ],
    { stdio: "inherit" },
  );
}
