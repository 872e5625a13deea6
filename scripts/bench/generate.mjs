// Fills a local D1 with a realistic network, fast: one pass in JS (network.mjs) and bulk SQL for
// the crowds (crowds.mjs), as multi-row INSERTs in a few SQL files loaded straight into the
// migrated database (sql-files.mjs; no HTTP per row). Writes `<persist-to>-meta.json`: the ids the
// bench's rows aim at.
// Usage: node scripts/bench/generate.mjs --notes 10000 --persist-to .wrangler/bench-10k
import { writeFileSync } from "node:fs";
import { federationSql, popularSql } from "./crowds.mjs";
import { buildNetwork } from "./network.mjs";
import { loadIntoSqlite, writeSqlFiles } from "./sql-files.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const NOTES = Number(arg("notes", 10000));
const PERSIST = arg("persist-to", ".wrangler/bench");
const POP = Number(arg("popular", NOTES));

const network = buildNetwork(NOTES);
const dir = `${PERSIST}-sql`;
const files = writeSqlFiles(dir, network.tables, network.order, network.tail);
const popular = popularSql(NOTES, network.users, POP);
const federation = federationSql(popular.crowdEnd);
for (const [name, { sql }] of [
  ["zz-popular", popular],
  ["zz-federation", federation],
]) {
  const file = `${dir}/${name}.sql`;
  writeFileSync(file, sql);
  files.push(file);
}

const started = Date.now();
loadIntoSqlite(PERSIST, files);
const meta = {
  notes: NOTES,
  popular: POP,
  popularNote: popular.popularNote,
  freshNote: popular.freshNote,
  popularUser: popular.popularUser,
  freshUser: popular.freshUser,
  fedAuthors: federation.fedAuthors,
  fedFollowers: federation.fedFollowers,
  fedServers: federation.fedServers,
  users: network.users,
  chainFocus: network.chainFocus,
  rareWord: network.rareWord,
  focusNote: network.focusNote,
  focusAuthor: network.focusAuthor,
  seconds: (Date.now() - started) / 1000,
};
writeFileSync(`${PERSIST}-meta.json`, JSON.stringify(meta));
console.log(`generated ${NOTES} notes, ${network.users} users in ${meta.seconds.toFixed(1)} s (${files.length} files)`);
