#!/usr/bin/env bash
# Playwright's webServer: see scripts/e2e-server.mjs (the built worker, no watching, its own D1).
set -euo pipefail
cd "$(dirname "$0")/.."
exec node scripts/e2e-server.mjs
