// What the screenshot scripts (scripts/screens-*.mjs) share: their arguments, the two devices,
// people signed up through the API, and a browser context signed in as one of them in a theme.
// Against a running worker that trusts x-test-client (the e2e server: scripts/e2e-server.mjs).
import { mkdirSync } from "node:fs";
import { request } from "@playwright/test";

export const VARIANTS = [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }],
];

/** BASE_URL and OUT_DIR from the command line (OUT_DIR made), and this run's tag for names. */
export function screensArgs(script) {
  const [base, out] = process.argv.slice(2);
  if (!base || !out) throw new Error(`usage: ${script} BASE_URL OUT_DIR`);
  mkdirSync(out, { recursive: true });
  return { base, out, run: Date.now().toString(36).slice(-5) };
}

/**
 * For a script that shoots the same pages before and after a change: screensArgs, then STAGE (the
 * files' prefix, "after" unless given) and ONLY (the comma-separated shots wanted, all unless given).
 */
export function stagedArgs(script) {
  const shots = screensArgs(script);
  const [, , , , stage = "after", only = ""] = process.argv;
  return { ...shots, stage, wanted: (name) => !only || only.split(",").includes(name) };
}

/** Each device and theme, as `v` (a tag for this variant's names) and `snap` (a shot of a page, named). */
export async function eachVariant({ out, run, stage }, shoot) {
  for (const [device, viewport] of VARIANTS) {
    for (const theme of ["light", "dark"]) {
      const snap = async (page, name, fullPage = false) => {
        await page.evaluate(() => document.fonts.ready);
        await page.screenshot({ path: `${out}/${stage}-${name}-${device}-${theme}.png`, fullPage });
      };
      await shoot({ device, viewport, theme, v: `${device[0]}${theme[0]}${run}`.toLowerCase(), snap });
    }
  }
}

/** A browser context of `viewport` in `theme` with nobody signed in. */
export async function visitorContext(browser, { base }, viewport, theme) {
  const context = await browser.newContext({ viewport, colorScheme: theme });
  await context.addCookies([{ name: "theme", value: theme, url: base }]);
  return context;
}

/** Grace's first job, an x-folder of type Company, as the profile and CV shots show it. */
export const gracesFirstJob = (grace) =>
  grace.api.post("/v1/folders", {
    data: {
      type: "Company",
      name: "Remington Rand",
      role: "Senior mathematician",
      start_month: "2024-01",
      descr: "Built the A-0 compiler for the UNIVAC I.",
    },
  });

/** A new person (password secret123) with an API context of their own. */
export async function person({ base, run }, tag, name) {
  const api = await request.newContext({ baseURL: base, extraHTTPHeaders: { "x-test-client": `shots-${run}-${tag}` } });
  const username = `${tag}${run}`.replace(/[^a-z0-9_]/g, "").slice(0, 30);
  const res = await api.post("/v1/signup", {
    data: { username, password: "secret123", email: `${username}@example.com`, name },
  });
  if (res.status() !== 201) throw new Error(`signup ${username}: ${res.status()} ${await res.text()}`);
  const { user } = await res.json();
  return { api, username, id: user.id };
}

/** A browser context of `viewport` in `theme`, signed in as `username`. */
export async function signedInContext(browser, { base, run }, viewport, theme, username) {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { "x-test-client": `shots-${run}` } });
  const login = await context.request.post(`${base}/v1/login`, { data: { username, password: "secret123" } });
  if (!login.ok()) throw new Error(`login: ${login.status()}`);
  // After the sign-in, which sets the account's own theme (system for these new people).
  await context.addCookies([{ name: "theme", value: theme, url: base }]);
  return context;
}
