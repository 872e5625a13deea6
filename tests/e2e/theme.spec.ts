import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, signedIn, test, uniq } from "./fixtures";

// Issue 22: light, dark or system, chosen in Settings and kept in a cookie; both themes pass axe
// (WCAG 2.2 AA, contrast included); the app can be installed (manifest, icons).

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const DARK_BG = "rgb(15, 20, 25)";
const LIGHT_BG = "rgb(246, 247, 249)";

/** Without JavaScript a choice is posted with Save theme; with it, choosing is saving (no button). */
const save = async (page: Page, js: boolean) => {
  if (!js) await page.getByRole("button", { name: "Save theme" }).click();
};

test("Settings' theme: dark is rendered by the server on <html>, system follows the OS, light stays light", async ({
  page,
  js,
}) => {
  await signedIn(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/settings");
  // System (no cookie yet): no attribute, and the stylesheet follows the OS.
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  await expect(page.getByRole("radio", { name: "System" })).toBeChecked();
  expect(await background(page)).toBe(DARK_BG);

  await page.getByRole("radio", { name: "Light" }).check();
  await save(page, js);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await background(page)).toBe(LIGHT_BG);

  await page.getByRole("radio", { name: "Dark" }).check();
  await save(page, js);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  // With JavaScript the choice is saved in the background: done once the cookie has come.
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value).toBe("dark");
  await page.emulateMedia({ colorScheme: "light" });
  // The server's first byte already says dark: no flash, no script needed.
  const html = await (await page.request.get("/")).text();
  expect(html).toMatch(/<html lang="en" data-theme="dark"/);
  await page.goto("/");
  expect(await background(page)).toBe(DARK_BG);
  const cookie = (await page.context().cookies()).find((c) => c.name === "theme");
  expect(cookie?.value).toBe("dark");
  expect(cookie?.expires ?? 0).toBeGreaterThan(Date.now() / 1000 + 300 * 24 * 3600);

  await page.goto("/settings");
  await page.getByRole("radio", { name: "System" }).check();
  await save(page, js);
  await expect(page.getByRole("radio", { name: "System" })).toBeChecked();
  await expect(page.locator("html")).not.toHaveAttribute("data-theme");
  // With JavaScript the choice is saved in the background: done once the cookie has gone.
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")).toBeUndefined();
  expect(await background(page)).toBe(LIGHT_BG);
});

test("a theme chosen on one device follows the account to the next sign-in elsewhere", async ({
  page,
  browser,
  js,
}) => {
  const a = await signedIn(page, "Two Devices");
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/settings");
  await page.getByRole("radio", { name: "Dark" }).check();
  // With JavaScript the choice is the save (no second button to press); without it, one submit.
  if (js) await expect(page.getByRole("button", { name: "Save theme" })).toHaveCount(0);
  await save(page, js);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value).toBe("dark");

  // Another browser, no cookie of its own: signing in brings the account's theme.
  const baseURL = test.info().project.use.baseURL as string;
  const other = await browser.newContext({
    baseURL,
    javaScriptEnabled: js,
    colorScheme: "light",
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const second = await other.newPage();
  await second.goto("/login");
  if (js) await second.locator("html[data-ready]").waitFor({ state: "attached" });
  await second.getByLabel("Username").fill(a.username);
  await second.getByLabel("Password", { exact: true }).fill(a.password);
  await second.getByRole("button", { name: "Log in" }).click();
  await expect(second).toHaveURL("/");
  await expect(second.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(second)).toBe(DARK_BG);
  await other.close();
});

test("a bad theme is refused with 422 and changes nothing", async ({ page }) => {
  const res = await page.request.post("/actions/theme", { form: { theme: "neon" }, maxRedirects: 0 });
  expect(res.status()).toBe(422);
  expect(res.headers()["set-cookie"]).toBeUndefined();
});

test("visitor pages from the edge cache keep each visitor's theme", async ({ page, browser, js }) => {
  test.skip(!js, "one project is enough");
  const path = `/about?v=${Date.now()}`;
  // The first (theme-less) visitor fills the cache; a dark visitor must not get that copy.
  await page.request.get(path);
  const dark = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  await dark.addCookies([{ name: "theme", value: "dark", url: test.info().project.use.baseURL ?? "" }]);
  expect(await (await dark.request.get(path)).text()).toContain('data-theme="dark"');
  // (The attribute on <html>: the stylesheet written into the head names it in its selectors.)
  expect(await (await page.request.get(path)).text()).not.toMatch(/<html[^>]*data-theme=/);
  await dark.close();
});

test("both themes meet WCAG 2.2 AA by axe on every kind of page", async ({ page, js }) => {
  test.skip(!js, "axe runs in the page");
  test.setTimeout(300_000);
  const me = await signedIn(page, "Contrast Checker");
  const note = await page.request.post("/v1/notes", {
    data: {
      label: "idea",
      // Links stacked by line breaks (a list of links, or the XSS corpus on Discover) must still be
      // 24 px apart (WCAG 2.5.8).
      content:
        '<p>Readable in the dark, with a <a href="https://example.com">link</a>.</p>' +
        '<p><a href="https://example.com/a">click</a><br><a href="https://example.com/b">click</a></p>',
    },
  });
  const folder = await page.request.post("/v1/folders", {
    data: { type: "skill", name: "Contrast", descr: "", link: "" },
  });
  const { note: n } = (await note.json()) as { note: { id: number } };
  const { slug } = (await folder.json()) as { slug: string };
  const pages = [
    "/",
    `/${me.username}/note/${n.id}`,
    `/${me.username}`,
    `/${me.username}?t=notes`,
    `/${me.username}/x/${slug}`,
    "/notifications",
    "/settings",
    "/?dialog=note",
  ];
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "theme", value: theme, url: test.info().project.use.baseURL ?? "" }]);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
      const { violations } = await new AxeBuilder({ page })
        .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"])
        .analyze();
      expect(
        violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(" ")).join(", ")}`),
        `${theme} ${path}`,
      ).toEqual([]);
    }
  }
  await page.context().clearCookies();
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "theme", value: theme, url: test.info().project.use.baseURL ?? "" }]);
    await page.goto("/login");
    const { violations } = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(
      violations.map((v) => v.id),
      `${theme} /login`,
    ).toEqual([]);
  }
});

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (b: Buffer) => ({ w: b.readUInt32BE(16), h: b.readUInt32BE(20), png: b.toString("latin1", 1, 4) });

test("installable: every page links the manifest and the apple-touch-icon; the manifest's icons are real PNGs", async ({
  page,
}) => {
  for (const path of ["/", "/login", "/about", "/nowhere-at-all"]) {
    const html = await (await page.request.get(path)).text();
    expect(html, path).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
    expect(html, path).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png"/>');
  }
  const res = await page.request.get("/manifest.webmanifest");
  expect(res.status()).toBe(200);
  const m = JSON.parse(await res.text());
  expect(m).toMatchObject({ name: "NoteX", display: "standalone", start_url: "/", theme_color: "#1d4ed8" });
  const icons = m.icons as { src: string; sizes: string; type: string; purpose: string }[];
  for (const want of ["192x192 any", "512x512 any", "512x512 maskable"]) {
    expect(icons.map((i) => `${i.sizes} ${i.purpose}`)).toContain(want);
  }
  for (const i of [...icons, { src: "/icons/apple-touch-icon.png", sizes: "180x180" }]) {
    const img = await page.request.get(i.src);
    expect(img.status(), i.src).toBe(200);
    const { w, h, png } = pngSize(await img.body());
    expect(`${png} ${w}x${h}`, i.src).toBe(`PNG ${i.sizes}`);
  }
});
