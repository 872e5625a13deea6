#!/usr/bin/env bash
# The worker as Playwright sees it: the built app under wrangler dev, on a fresh local database of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${E2E_PORT:-8788}"
STATE=".wrangler/e2e-${PORT}"
export WRANGLER_SEND_METRICS=false
node scripts/dev-vars.mjs
rm -rf "$STATE"
npx wrangler d1 migrations apply DB --local --persist-to "$STATE" >/dev/null
exec npx wrangler dev --ip 127.0.0.1 --port "$PORT" --persist-to "$STATE" --inspector-port "$((PORT + 1000))" --var TRUST_TEST_CLIENT_HEADER:1 --show-interactive-dev-session=false
