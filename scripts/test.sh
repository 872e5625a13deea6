#!/usr/bin/env bash
# npm test: every suite — vitest in the workers pool (API and unit, real D1 migrations), then
# Playwright in Chromium against the built worker, JS on and off, and the production bundle's size
# (npm run deploy -- --dry-run, at most 1.5 MiB gzip; one counted check). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false
rm -rf reports && mkdir -p reports
status=0
# Each runner's exit code goes to the summary too: a runner can fail with every test passed (vitest's
# unhandled errors, a Playwright global error), and that must show in the last line as well.
build_exit=0
bundle_exit=0
vitest_exit=0
playwright_exit=0
npm run build --silent >reports/build.log 2>&1 || { build_exit=$?; cat reports/build.log; echo "build failed"; status=1; }
if [ "$status" = 0 ]; then
  node scripts/deploy.mjs --dry-run --skip-build || { bundle_exit=$?; status=1; }
fi
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || { vitest_exit=$?; status=1; }
if [ "$build_exit" = 0 ] || [ -d build/client ]; then
  npx playwright test || { playwright_exit=$?; status=1; }
fi
BUILD_EXIT=$build_exit BUNDLE_EXIT=$bundle_exit VITEST_EXIT=$vitest_exit PLAYWRIGHT_EXIT=$playwright_exit \
  node scripts/summary.mjs || status=1
exit "$status"
