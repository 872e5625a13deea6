import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Starting a workerd for a test file costs more than most files' tests (about 4 s a file on two
// cores). Files that only ask and answer over HTTP share one workerd per vitest worker, each on storage
// emptied first (tests/setup-shared.ts). Everything else keeps a runtime of its own: a file that
// queues deliveries, holds sockets, fills rate limits or the edge cache leaves work and state behind
// that the next file would see. A new file is isolated until it is listed here.
const sharedRuntime = [
  "tests/api/account-deletion.test.ts",
  "tests/api/app-token-doors.test.ts",
  "tests/api/authz-matrix.test.ts",
  "tests/api/bench-twins.test.ts",
  "tests/api/cleanup.test.ts",
  "tests/api/concurrency.test.ts",
  "tests/api/content-cleanup.test.ts",
  "tests/api/counters.test.ts",
  "tests/api/d1-meter.test.ts",
  "tests/api/domain-blocks.test.ts",
  "tests/api/export.test.ts",
  "tests/api/federation-discovery.test.ts",
  "tests/api/feed-cost.test.ts",
  "tests/api/feeds.test.ts",
  "tests/api/folder-likes.test.ts",
  "tests/api/folders.test.ts",
  "tests/api/google.test.ts",
  "tests/api/hostile-input.test.ts",
  "tests/api/ids.test.ts",
  "tests/api/interests.test.ts",
  "tests/api/linkedin-import.test.ts",
  "tests/api/mastodon-accounts.test.ts",
  "tests/api/mastodon-lists.test.ts",
  "tests/api/mastodon-media.test.ts",
  "tests/api/mastodon-oauth.test.ts",
  "tests/api/mastodon-paging.test.ts",
  "tests/api/mastodon-probes.test.ts",
  "tests/api/mastodon-remote.test.ts",
  "tests/api/mastodon-statuses.test.ts",
  "tests/api/mastodon-trips.test.ts",
  "tests/api/media-dims.test.ts",
  "tests/api/mentions.test.ts",
  "tests/api/meter.test.ts",
  "tests/api/newcomer.test.ts",
  "tests/api/notes.test.ts",
  "tests/api/notifications.test.ts",
  "tests/api/openapi.test.ts",
  "tests/api/outbound.test.ts",
  "tests/api/page-paths.test.ts",
  "tests/api/private-state.test.ts",
  "tests/api/profile-links.test.ts",
  "tests/api/query-plans.test.ts",
  "tests/api/read-trips.test.ts",
  "tests/api/reader-bugs.test.ts",
  "tests/api/recount.test.ts",
  "tests/api/redirects.test.ts",
  "tests/api/refusals.test.ts",
  "tests/api/removed-content.test.ts",
  "tests/api/renames.test.ts",
  "tests/api/request-bodies.test.ts",
  "tests/api/resume.test.ts",
  "tests/api/robustness-user.test.ts",
  "tests/api/robustness-visitor.test.ts",
  "tests/api/safety.test.ts",
  "tests/api/search-cost.test.ts",
  "tests/api/search.test.ts",
  "tests/api/session-revocation.test.ts",
  "tests/api/social.test.ts",
  "tests/api/spoofing.test.ts",
  "tests/api/thread.test.ts",
  "tests/api/username-check.test.ts",
  "tests/api/write-plans.test.ts",
  "tests/api/write-trips.test.ts",
  "tests/unit/action-doors.test.ts",
  "tests/unit/app-error.test.ts",
  "tests/unit/autoload.test.ts",
  "tests/unit/client-rules.test.ts",
  "tests/unit/counted-kinds.test.ts",
  "tests/unit/decision-records.test.ts",
  "tests/unit/federation-kv.test.ts",
  "tests/unit/interaction-kinds.test.ts",
  "tests/unit/links.test.ts",
  "tests/unit/named-results.test.ts",
  "tests/unit/plain-writes.test.ts",
  "tests/unit/redirects.test.ts",
  "tests/unit/secrets.test.ts",
  "tests/unit/sql-raw.test.ts",
  "tests/unit/token.test.ts",
  "tests/unit/typed-client.test.ts",
];

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      main: "./tests/worker.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // A second instance's database for the two-instance federation test (tests/api/federation-e2e.test.ts).
        d1Databases: { DB_B: "notex-b" },
        // Its own sessions, where a test deletes accounts on both (sessions are keyed by account id).
        kvNamespaces: { SESSIONS_B: "notex-sessions-b" },
        bindings: {
          APP_ENV: "local",
          TOKEN_SECRET: "test-token-secret-0123456789abcdef",
          UPLOAD_SECRET: "test-upload-secret-0123456789abcdef",
          GOOGLE_CLIENT_ID: "test-client",
          GOOGLE_CLIENT_SECRET: "test-secret",
          // A stand-in provider: tests/api/google.test.ts answers these URLs with its own keys.
          GOOGLE_AUTH_URL: "https://idp.test/auth",
          GOOGLE_TOKEN_URL: "https://idp.test/token",
          GOOGLE_ISSUER: "https://idp.test",
          GOOGLE_JWKS_URL: "https://idp.test/jwks",
          TEST_MIGRATIONS: await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url))),
        },
      },
    })),
  ],
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "isolated",
          include: ["tests/api/**/*.test.ts", "tests/unit/**/*.test.ts"],
          exclude: sharedRuntime,
          setupFiles: ["./tests/setup.ts"],
        },
      },
      {
        extends: true,
        test: { name: "shared", include: sharedRuntime, isolate: false, setupFiles: ["./tests/setup-shared.ts"] },
      },
    ],
    testTimeout: 30_000,
    // Files side by side on at least two cores. Vitest's default is one fewer than the cores: one
    // file at a time on a 2-core CI machine, where the test runner and the workers runtime (a
    // process of its own) then mostly take turns on one core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    deps: { optimizer: { ssr: { include: ["@remix-run/cloudflare", "@remix-run/server-runtime"] } } },
  },
});
