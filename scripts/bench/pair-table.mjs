// Two bench runs side by side as one Markdown table for the README: each cell is "run 1 / run 2".
// Usage: node scripts/bench/pair-table.mjs bench/run1.json bench/run2.json
import { readFileSync } from "node:fs";

const [a, b] = process.argv.slice(2).map((f) => JSON.parse(readFileSync(f, "utf8")));
const byRow = (run) => new Map(run.table.map((r) => [r.row, r]));
const [ta, tb] = [byRow(a), byRow(b)];
// The median ratio without its spread: the spread stays in bench/results.json.
const cell = (v) => String(v ?? "-").replace(/ \(.*\)$/, "");
const both = (x, y) => (cell(x) === cell(y) ? cell(x) : `${cell(x)} / ${cell(y)}`);
const columns = Object.keys(a.table[0]).filter((k) => !/p50 ms$/.test(k) || k.startsWith("twin"));

console.log(`| ${columns.map((k) => k.replace(" (spread)", "").replace("000k", "M")).join(" | ")} |`);
console.log(`|${columns.map(() => "---").join("|")}|`);
for (const [name, x] of ta) {
  const y = tb.get(name) ?? {};
  console.log(`| ${columns.map((k) => (k === "row" ? name : both(x[k], y[k]))).join(" | ")} |`);
}
console.log();
console.log("| write | size | popular / fresh p50 | rows popular | rows fresh | budget |");
console.log("|---|---|---|---|---|---|");
a.writes.forEach((w, i) => {
  const v = b.writes[i] ?? {};
  console.log(
    `| ${w.write} | ${w.size / 1000}k | ${both(w["popular / fresh p50"], v["popular / fresh p50"])} | ${both(w["rows popular"], v["rows popular"])} | ${both(w["rows fresh"], v["rows fresh"])} | ${both(w.budget, v.budget)} |`,
  );
});
console.log();
console.log("| size | writes/s | p50 ms | p99 ms | errors |");
console.log("|---|---|---|---|---|");
a.ceilings.forEach((c, i) => {
  const d = b.ceilings[i] ?? {};
  console.log(
    `| ${c.size / 1000}k | ${both(Math.round(c.writesPerSecond), Math.round(d.writesPerSecond))} | ${both(Math.round(c.p50), Math.round(d.p50))} | ${both(Math.round(c.p99), Math.round(d.p99))} | ${both(c.errors, d.errors)} |`,
  );
});
console.log();
console.log(`over, run 1: ${a.over.length ? a.over.join("; ") : "none"}`);
console.log(`over, run 2: ${b.over.length ? b.over.join("; ") : "none"}`);
