#!/usr/bin/env bash
# npm test: every suite — vitest in the workers pool (API and unit, real D1 migrations), then
# Playwright in Chromium against the built worker, JS on and off, and the production bundle's size
# (npm run deploy -- --dry-run, at most 1.5 MiB gzip; one counted check). Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
export WRANGLER_SEND_METRICS=false
rm -rf reports && mkdir -p reports
status=0
npm run build --silent >reports/build.log 2>&1 || { cat reports/build.log; echo "build failed"; status=1; }
if [ "$status" = 0 ]; then
  node scripts/deploy.mjs --dry-run --skip-build || status=1
fi
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/vitest.json || status=1
if [ "$status" = 0 ] || [ -d build/client ]; then
  npx playwright test || status=1
fi
node scripts/summary.mjs || status=1
exit "$status"
