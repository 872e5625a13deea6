#!/usr/bin/env bash
# The worker as Playwright sees it: the built app under wrangler dev, on a fresh local database of
# its own, signing in with "Google" against a real local OpenID provider (scripts/oidc-provider.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${E2E_PORT:-8788}"
OIDC_PORT="$((PORT + 700))"
ISSUER="http://127.0.0.1:${OIDC_PORT}"
STATE=".wrangler/e2e-${PORT}"
export WRANGLER_SEND_METRICS=false
# Its own dev registry: parallel wrangler dev instances (other ports, other clones) must not
# reload this one when they start or stop.
export WRANGLER_REGISTRY_PATH="$PWD/$STATE-registry"
node scripts/dev-vars.mjs
rm -rf "$STATE"
npx wrangler d1 migrations apply DB --local --persist-to "$STATE" >/dev/null
OIDC_PORT="$OIDC_PORT" OIDC_APP_ORIGINS="http://127.0.0.1:${PORT}" OIDC_CLIENT_ID=notex-e2e OIDC_CLIENT_SECRET=notex-e2e-secret \
  node scripts/oidc-provider.mjs >/dev/null 2>&1 &
OIDC_PID=$!
trap 'kill "$OIDC_PID" 2>/dev/null || true' EXIT INT TERM
npx wrangler dev --ip 127.0.0.1 --port "$PORT" --persist-to "$STATE" --inspector-port "$((PORT + 1000))" \
  --show-interactive-dev-session=false \
  --var TRUST_TEST_CLIENT_HEADER:1 \
  --var "GOOGLE_AUTH_URL:${ISSUER}/auth" --var "GOOGLE_TOKEN_URL:${ISSUER}/token" \
  --var "GOOGLE_ISSUER:${ISSUER}" --var "GOOGLE_JWKS_URL:${ISSUER}/jwks" \
  --var GOOGLE_CLIENT_ID:notex-e2e --var GOOGLE_CLIENT_SECRET:notex-e2e-secret
