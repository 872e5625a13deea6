// `npm run recount`: checks every counter column of the local D1 against the rows it counts and
// repairs the wrong ones (worker/db/recount.js holds the SQL), printing what it fixed.
// Another local state: `npm run recount -- --persist-to DIR` or RECOUNT_PERSIST_TO=DIR.
import { COUNTERS, recount } from "../worker/db/recount.js";
import { d1Local } from "./d1-local.mjs";

const argAt = process.argv.indexOf("--persist-to");
const persistTo = argAt > 0 ? process.argv[argAt + 1] : process.env.RECOUNT_PERSIST_TO;

const fixed = await recount(
  async (sql) => d1Local(`${sql};`, persistTo)[0],
  async (sqls) => d1Local(sqls.map((s) => `${s};`).join("\n"), persistTo),
);
for (const f of fixed) console.log(`${f.counter}: ${f.fixed} fixed`);
console.log(
  fixed.length
    ? `recount: repaired ${fixed.length} of ${COUNTERS.length} counters; all exact now`
    : `recount: all ${COUNTERS.length} counters exact, nothing to fix`,
);
