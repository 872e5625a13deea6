// Prints the totals of every runner as one plain line, from their JSON reports.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const read = (f) => {
  if (existsSync(f)) return JSON.parse(readFileSync(f, "utf8"));
  missing.push(f);
  return null;
};

const vitest = read("reports/vitest.json");
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += (vitest.numFailedTests ?? 0) + (vitest.numRuntimeErrorTestSuites ?? 0);
  skipped += (vitest.numPendingTests ?? 0) + (vitest.numTodoTests ?? 0);
}
const pw = read("reports/playwright.json");
if (pw) {
  passed += pw.stats?.expected ?? 0;
  failed += (pw.stats?.unexpected ?? 0) + (pw.stats?.flaky ?? 0) + (pw.errors?.length ?? 0);
  skipped += pw.stats?.skipped ?? 0;
}
// The production bundle (scripts/deploy.mjs --dry-run): its gzip size against its limit, and none
// of the bench's code in it; two checks.
const bundle = read("reports/bundle.json");
if (bundle) {
  for (const ok of [bundle.fits, !bundle.benchCode?.length]) {
    if (ok) passed++;
    else failed++;
  }
}
// A runner that produced no report failed to run at all.
failed += missing.length;
if (missing.length) console.error(`missing reports: ${missing.join(", ")}`);
// A runner that exited non-zero although its report counts no failure (vitest's unhandled errors,
// a Playwright error outside any test, the build): one failure, named, so the line never reads
// "0 failed" for a run that failed.
const counted = {
  VITEST_EXIT: (vitest?.numFailedTests ?? 0) + (vitest?.numRuntimeErrorTestSuites ?? 0),
  PLAYWRIGHT_EXIT: (pw?.stats?.unexpected ?? 0) + (pw?.stats?.flaky ?? 0) + (pw?.errors?.length ?? 0),
  BUNDLE_EXIT: bundle ? [bundle.fits, !bundle.benchCode?.length].filter((ok) => !ok).length : 0,
  BUILD_EXIT: 0,
};
for (const [name, already] of Object.entries(counted)) {
  const code = Number(process.env[name] ?? 0);
  if (code !== 0 && already === 0) {
    failed++;
    console.error(
      `${name.replace("_EXIT", "").toLowerCase()} exited ${code} with no failed test counted (see its output above)`,
    );
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
