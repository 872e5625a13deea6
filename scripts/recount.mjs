// npm run recount [-- --remote | --persist-to DIR]: checks every stored counter against the rows it
// counts (worker/db/recount.ts) in the local D1 (or --remote), repairs what drifted, and reports it.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { transformSync } from "esbuild";

const source = readFileSync(new URL("../worker/db/recount.ts", import.meta.url), "utf8");
const { code } = transformSync(source, { loader: "ts", format: "esm" });
const { COUNTERS } = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);

const where = process.argv.includes("--remote") ? ["--remote"] : ["--local"];
const persist = process.argv.indexOf("--persist-to");
if (persist > 0) where.push("--persist-to", process.argv[persist + 1]);

function d1(sql) {
  const out = execFileSync("npx", ["wrangler", "d1", "execute", "DB", ...where, "--json", "--command", sql], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out).flatMap((r) => r.results ?? []);
}

// One statement per counter in one call (D1 caps compound selects).
const checks = COUNTERS.map((c) => `select '${c.name}' as name, n from (${c.check})`).join(";\n");
const wrong = d1(checks).filter((r) => r.n > 0);
if (!wrong.length) {
  console.log(`recount: all ${COUNTERS.length} counters exact`);
  process.exit(0);
}
const repairs = wrong.flatMap((r) => COUNTERS.find((c) => c.name === r.name).repair);
d1(repairs.join(";\n"));
for (const r of wrong) console.log(`recount: ${r.name}: ${r.n} fixed`);
const left = d1(checks).filter((r) => r.n > 0);
if (left.length) {
  console.error(`recount: still wrong after repair: ${left.map((r) => r.name).join(", ")}`);
  process.exit(1);
}
console.log(`recount: ${wrong.length} counter(s) repaired, all ${COUNTERS.length} exact now`);
