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
