import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      main: "./tests/worker.ts",
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // A second instance's database for the two-instance federation test (tests/api/federation-e2e.test.ts).
        d1Databases: { DB_B: "notex-b" },
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
    include: ["tests/api/**/*.test.ts", "tests/unit/**/*.test.ts"],
    setupFiles: ["./tests/setup.ts"],
    testTimeout: 30_000,
    // Files side by side on at least two cores. Vitest's default is one fewer than the cores: one
    // file at a time on a 2-core CI machine, where the test runner and the workers runtime (a
    // process of its own) then mostly take turns on one core.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    deps: { optimizer: { ssr: { include: ["@remix-run/cloudflare", "@remix-run/server-runtime"] } } },
  },
});
