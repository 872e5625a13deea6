import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 8788);
export const baseURL = `http://127.0.0.1:${PORT}`;

// Debian's Chromium (no browser download); the flags keep it off the closed network. Tests run in
// its headless shell (Debian's chromium-headless-shell, the build Playwright itself runs headless):
// on two cores the full browser spent about twice the CPU per test drawing for a window nobody sees.
// The screenshot baselines were made in the full browser, so the visual project stays on it.
const fullChromium = "/usr/bin/chromium";
const headlessShell = existsSync("/usr/bin/chromium-headless-shell")
  ? "/usr/bin/chromium-headless-shell"
  : fullChromium;
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? headlessShell,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 45_000,
  // Screenshot baselines (tests/e2e/visual.spec.ts): same machine kind, same Chromium, same font, so
  // only a real change moves more than a few hundred pixels. A pixel counts as changed at half the
  // default colour distance (0.1): at 0.2 a low-contrast change in the dark theme (the top bar's
  // search field, the current page's highlight) passed unseen; two runs in a row still pass at 0.05.
  expect: {
    timeout: 10_000,
    toHaveScreenshot: { maxDiffPixelRatio: 0.002, threshold: 0.1, animations: "disabled", caret: "hide" },
  },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "reports/playwright.json" }]],
  use: { baseURL, launchOptions, trace: "off" },
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: /visual\.spec\.ts/ },
    { name: "nojs", use: { javaScriptEnabled: false }, testIgnore: /visual\.spec\.ts/ },
    {
      name: "visual",
      use: {
        javaScriptEnabled: true,
        launchOptions: { ...launchOptions, executablePath: process.env.CHROMIUM_PATH ?? fullChromium },
      },
      testMatch: /visual\.spec\.ts/,
    },
  ],
  webServer: {
    command: "bash scripts/e2e-server.sh",
    url: `${baseURL}/v1/health`,
    reuseExistingServer: false,
    timeout: 600_000,
    stdout: "ignore",
    stderr: "pipe",
    env: { E2E_PORT: String(PORT) },
  },
});
