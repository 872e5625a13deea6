// The shell on a phone and a desktop: a drawer that behaves as a modal, tap targets a finger can
// hit, a header that does not repeat the sidebar, and a 404 that stays inside the app.
import { expect, signedIn, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };

test("the phone drawer takes focus, traps it, closes on Escape and on the backdrop, and gives focus back", async ({
  page,
  js,
}) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, "Drawer Person");
  await page.goto("/");
  const open = page.getByRole("link", { name: "Open menu" });
  const drawer = page.getByRole("navigation", { name: "Main" });
  await open.click();
  await expect(drawer).toBeVisible();
  if (js) {
    await expect(drawer.locator(":focus")).toHaveCount(1);
    for (let i = 0; i < 16; i++) await page.keyboard.press("Tab");
    await expect(drawer.locator(":focus")).toHaveCount(1);
    await page.keyboard.press("Shift+Tab");
    await expect(drawer.locator(":focus")).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(open).toBeFocused();
    await open.click();
    await expect(drawer).toBeVisible();
  }
  // A tap on the dimmed page beside the drawer closes it.
  await page.mouse.click(PHONE.width - 20, PHONE.height / 2);
  await expect(drawer).toBeHidden();
  if (js) await expect(open).toBeFocused();
});

test("the desktop header does not repeat the sidebar: no menu button, one logo, one search entry", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Open menu" })).toBeHidden();
  await expect(page.locator("a:visible", { hasText: /^NoteX$/ })).toHaveCount(1);
  const header = page.getByRole("banner");
  await expect(header.getByRole("searchbox", { name: "Search NoteX" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Search", exact: true })).toHaveCount(0);
});

test("on a phone every tap target is at least 44×44", async ({ page, js }) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, "Tapper Person");
  const made = await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Tap me</p>" } });
  expect(made.status()).toBe(201);
  await page.goto("/");
  const card = page.locator("article.note", { hasText: "Tap me" }).first();
  // With JavaScript a signed-in card's ⋯ link is replaced by the dropdown once its module arrives
  // (after the first paint): measure the control a person taps then, not the one on its way out.
  if (js) await expect(card.locator("details.menu > summary[aria-label='Note menu']")).toBeVisible();
  const targets = [
    card.locator(".note-actions .act"),
    card.getByLabel("Note menu", { exact: true }),
    page.getByRole("navigation", { name: "Mobile" }).getByRole("link"),
  ];
  for (const group of targets) {
    const n = await group.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const box = await group.nth(i).boundingBox();
      expect(box?.width, `${await group.nth(i).innerHTML()} (${js ? "js" : "nojs"})`).toBeGreaterThanOrEqual(44);
      expect(box?.height, await group.nth(i).innerHTML()).toBeGreaterThanOrEqual(44);
    }
  }
});

test("the 404 page sits inside the app's shell and font", async ({ page }) => {
  await signedIn(page, "Lost Person");
  await page.goto("/no/such/page/here");
  const heading = page.getByRole("heading", { name: "Oops! The page you're looking for is not here." });
  await expect(heading).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Lost Person/ })).toBeVisible();
  expect(await heading.evaluate((h) => getComputedStyle(h).fontFamily)).toMatch(/Inter/);
  await expect(page.getByRole("link", { name: "Back to Home Page" })).toBeVisible();
});
