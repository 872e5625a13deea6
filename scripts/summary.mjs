// Prints the totals of every runner as one plain line, from their JSON reports and exit codes.
import { existsSync, readFileSync } from "node:fs";

const missing = [];
const read = (f) => {
  if (existsSync(f)) return JSON.parse(readFileSync(f, "utf8"));
  missing.push(f);
  return null;
};

const vitest = read("reports/vitest.json");
const pw = read("reports/playwright.json");
// The production bundle (scripts/deploy.mjs --dry-run): its gzip size against its limit, and none
// of the bench's code in it; two checks.
const bundle = read("reports/bundle.json");
const bundleChecks = bundle ? [bundle.fits, !bundle.benchCode?.length] : [];

// Each runner's counts, keyed by the variable scripts/test.sh passes its exit code in.
const runners = {
  VITEST_EXIT: {
    passed: vitest?.numPassedTests ?? 0,
    failed: (vitest?.numFailedTests ?? 0) + (vitest?.numRuntimeErrorTestSuites ?? 0),
    skipped: (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0),
  },
  PLAYWRIGHT_EXIT: {
    passed: pw?.stats?.expected ?? 0,
    failed: (pw?.stats?.unexpected ?? 0) + (pw?.stats?.flaky ?? 0) + (pw?.errors?.length ?? 0),
    skipped: pw?.stats?.skipped ?? 0,
  },
  BUNDLE_EXIT: {
    passed: bundleChecks.filter((ok) => ok).length,
    failed: bundleChecks.filter((ok) => !ok).length,
    skipped: 0,
  },
  BUILD_EXIT: { passed: 0, failed: 0, skipped: 0 },
};

let passed = 0;
// A runner that produced no report failed to run at all.
let failed = missing.length;
let skipped = 0;
if (missing.length) console.error(`missing reports: ${missing.join(", ")}`);
for (const [name, counts] of Object.entries(runners)) {
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  // A runner that exited non-zero although its report counts no failure (vitest's unhandled errors,
  // a Playwright error outside any test, the build): one failure, named, so the line never reads
  // "0 failed" for a run that failed.
  const code = Number(process.env[name] ?? 0);
  if (code !== 0 && counts.failed === 0) {
    failed++;
    console.error(
      `${name.replace("_EXIT", "").toLowerCase()} exited ${code} with no failed test counted (see its output above)`,
    );
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
