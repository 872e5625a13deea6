// `npm run recount`: checks every counter column of the local D1 against the rows it counts and
// repairs the wrong ones (worker/db/recount.js holds the SQL), printing what it fixed.
// Another local state: `npm run recount -- --persist-to DIR` or RECOUNT_PERSIST_TO=DIR.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { COUNTERS, recount } from "../worker/db/recount.js";

const argAt = process.argv.indexOf("--persist-to");
const persistTo = argAt > 0 ? process.argv[argAt + 1] : process.env.RECOUNT_PERSIST_TO;
const persist = persistTo ? ["--persist-to", persistTo] : [];
mkdirSync(".wrangler", { recursive: true });

/** Runs a SQL file on the local D1 and answers the rows of every statement in it. */
function run(sql) {
  writeFileSync(".wrangler/recount.sql", `${sql}\n`);
  const out = execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--local", ...persist, "--json", "--file", ".wrangler/recount.sql"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  return JSON.parse(out).flatMap((r) => r.results ?? []);
}

const fixed = await recount(
  async (sql) => run(`${sql};`)[0],
  async (sqls) => run(sqls.map((s) => `${s};`).join("\n")),
);
for (const f of fixed) console.log(`${f.counter}: ${f.fixed} fixed`);
console.log(
  fixed.length
    ? `recount: repaired ${fixed.length} of ${COUNTERS.length} counters; all exact now`
    : `recount: all ${COUNTERS.length} counters exact, nothing to fix`,
);
