import { expect, postNote, signedIn, test, uniq } from "./fixtures";

// Issue 8 §4: every HTML page carries a CSP with a fresh nonce on every script and no inline escape hatch.
const PAGES = ["/", "/login", "/about", "/terms", "/policy", "/search", "/settings", "/no/such/page", "/adalovelace"];

test("every page type sends the security headers and nonce-only scripts", async ({ page, js }) => {
  test.skip(!js, "header checks do not depend on JavaScript");
  await signedIn(page);
  const nonces = new Set<string>();
  for (const path of PAGES) {
    const res = await page.request.get(path);
    const csp = res.headers()["content-security-policy"] ?? "";
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
    expect(csp, path).not.toContain("unsafe-inline' 'strict"); // no inline scripts
    expect(
      csp.split(";").find((d) => d.trim().startsWith("script-src")),
      path,
    ).not.toContain("unsafe-inline");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toContain("frame-src https://www.youtube-nocookie.com");
    expect(csp, path).toContain("object-src 'none'");
    expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    expect(res.headers()["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
    nonces.add(nonce);
    const html = await res.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  }
  expect(nonces.size).toBe(PAGES.length);
});

test("pages hydrate under the CSP without violations", async ({ page, js }) => {
  test.skip(!js, "needs scripts");
  const violations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/");
  await page.getByRole("complementary").getByRole("link", { name: "Log in" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(violations).toEqual([]);
});

test("visitor pages come from the edge cache with a fresh nonce each time; signed-in pages stay private", async ({
  page,
  browser,
  js,
}) => {
  test.skip(!js, "header checks do not depend on JavaScript");
  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const path = `/about?v=${Date.now()}`;
  const seen: { cache: string; nonce: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await visitor.request.get(path);
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=30");
    const nonce = /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"] ?? "")?.[1] ?? "";
    const html = await res.text();
    // The page's scripts carry this response's nonce, never the one the cached copy was made with.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toContain(`nonce="${nonce}"`);
    seen.push({ cache: res.headers()["x-page-cache"], nonce });
  }
  expect(seen.map((s) => s.cache)).toEqual(["miss", "hit"]);
  expect(seen[0].nonce).not.toBe(seen[1].nonce);
  await visitor.close();

  await signedIn(page);
  const mine = await page.request.get(path);
  expect(mine.headers()["cache-control"]).toBe("private, no-store");
  expect(mine.headers()["x-page-cache"]).toBeUndefined();
  expect(await mine.text()).toContain("dialog=logout"); // the signed-in shell, not the cached visitor page
});

// A text the browser renders differently from the server (a relative time counted on two clocks)
// makes React throw the server's HTML away and render the page again: slower, and a flash.
test("signed-in and visitor pages hydrate without a mismatch", async ({ page, js }) => {
  test.skip(!js, "needs scripts");
  const me = await signedIn(page);
  const mismatches: string[] = [];
  const react = /hydrat|did not match|Minified React error #(418|421|423|425)/i;
  page.on("console", (m) => {
    if (m.type() === "error" && react.test(m.text())) mismatches.push(`${page.url()}: ${m.text().slice(0, 200)}`);
  });
  // #421: a boundary still hydrating got an update, and React rendered it again (an uncaught error).
  page.on("pageerror", (e) => {
    if (react.test(e.message)) mismatches.push(`${page.url()}: ${e.message.slice(0, 200)}`);
  });
  const id = await postNote(page, `Hydrate me ${uniq("h")}`);
  for (const path of ["/settings", "/", `/${me.username}`, "/notifications", `/${me.username}/note/${id}`]) {
    // A second apart from the session's start, so a time counted again in the browser differs.
    await page.waitForTimeout(1100);
    await page.goto(path);
    await expect(page.locator("html[data-ready]")).toBeAttached();
  }
  // And as a visitor: a card's menu hydrates inside its own boundary there, once its module is in
  // (held back here, as on a slow network, so nothing may update the card in the meantime).
  await page.context().clearCookies();
  await page.route("**/assets/NoteMenu-*.js", async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  for (const path of ["/", `/${me.username}/note/${id}`]) {
    await page.goto(path);
    await expect(page.locator("html[data-ready]")).toBeAttached();
    await page.waitForTimeout(2000);
  }
  expect(mismatches).toEqual([]);
});
