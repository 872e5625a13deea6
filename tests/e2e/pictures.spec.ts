// A note's pictures hold their place before they load: the note's own page knows each picture's
// natural size (read from its header at upload), so its box has its final height from the first
// paint and nothing below it moves; with JavaScript the composer also sends a blurhash, painted
// where the picture will be instead of a plain tint.
import { rgbPng } from "./png";
import type { Page, Route } from "@playwright/test";
import { expect, fillNote, signedIn, test, uniq } from "./fixtures";

/** A 1200×800 RGB PNG, a warm-to-cool gradient with a band, so a blurhash has something to show. */
function gradientPng(width = 1200, height = 800): Buffer {
  return rgbPng(width, height, (y) => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const band = Math.abs(y - height / 2) < height / 8;
      row[1 + x * 3] = band ? 250 : Math.round(230 - (x / width) * 180);
      row[2 + x * 3] = band ? 200 : Math.round(120 + (y / height) * 60);
      row[3 + x * 3] = band ? 60 : Math.round(60 + (x / width) * 180);
    }
    return row;
  });
}

/** Posts a note with the picture through the composer (JS: scaled and hashed in the browser). */
async function postPicture(page: Page, js: boolean) {
  await signedIn(page, "Photographer");
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  if (js) await expect(form.locator("[data-editor]")).toBeVisible();
  await fillNote(form, `A sunset ${uniq("pic")}`);
  await form
    .getByLabel("Images (up to 10)")
    .setInputFiles([{ name: "sunset.png", mimeType: "image/png", buffer: gradientPng() }]);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/note\/\d+$/);
  return page.url();
}

/** Holds every stored picture's request until `release` is called: the page as it is before they load. */
async function holdPictures(page: Page) {
  const held: Route[] = [];
  await page.route("**/img/u/**", (route) => {
    held.push(route);
  });
  return async () => {
    for (const r of held.splice(0)) await r.continue();
    await page.unroute("**/img/u/**");
  };
}

const box = (page: Page) =>
  page
    .locator("article.note .images img")
    .first()
    .evaluate((e) => {
      const img = e as HTMLImageElement;
      const r = img.getBoundingClientRect();
      return {
        complete: img.complete && img.naturalWidth > 0,
        width: r.width,
        height: r.height,
        background: getComputedStyle(img).backgroundImage,
      };
    });

test("a note's picture has its final box before it loads, with a blurred placeholder", async ({ page, js }) => {
  const url = await postPicture(page, js);
  const release = await holdPictures(page);
  // The page's load event waits for its pictures: only its HTML is waited for.
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await expect(page.locator("article.note .images img").first()).toBeAttached();
  const before = await box(page);
  expect(before.complete).toBe(false);
  // The picture's own proportions (3:2, or as scaled: the browser keeps them) before a byte of it came.
  expect(before.height).toBeGreaterThan(100);
  expect(before.width / before.height).toBeCloseTo(1.5, 1);
  // With JavaScript the composer hashed the picture: its blur stands where it will be.
  if (js) expect(before.background).toContain("data:image/bmp");
  // What follows the picture does not move when it arrives.
  const below = () =>
    page
      .locator("article.note .images")
      .first()
      .evaluate((e) => e.getBoundingClientRect().bottom);
  const bottomBefore = await below();
  await release();
  await expect.poll(async () => (await box(page)).complete).toBe(true);
  const after = await box(page);
  expect(after.height).toBeCloseTo(before.height, 0);
  expect(after.width).toBeCloseTo(before.width, 0);
  expect(await below()).toBeCloseTo(bottomBefore, 0);
});

test("screens: the placeholder while a picture loads, and the picture", async ({ page, js }) => {
  // Pictures to look at (its checks are the test above's): only with SCREENS=1, once, with JavaScript.
  test.skip(!js || !process.env.SCREENS, "screens only with SCREENS=1, taken once, with JavaScript");
  test.setTimeout(240_000);
  const url = await postPicture(page, js);
  for (const [device, width, height] of [
    ["desktop", 1280, 900],
    ["phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const release = await holdPictures(page);
      await page.goto(url, { waitUntil: "domcontentloaded" });
      const note = page.locator("article.note").first();
      await expect(note.locator(".images img")).toBeVisible();
      await note.screenshot({ path: `docs/screens/issue-46/after-picture-loading-${device}-${theme}.png` });
      // How the page stood before: a square tint of no known size (the picture's box came with it).
      await note.locator(".images img").evaluate((e) => {
        const img = e as HTMLImageElement;
        img.removeAttribute("style");
        img.className = "";
        img.width = 480;
        img.height = 480;
      });
      await note.screenshot({ path: `docs/screens/issue-46/before-picture-loading-${device}-${theme}.png` });
      await release();
      await page.goto(url);
      await expect.poll(async () => (await box(page)).complete).toBe(true);
      await note.screenshot({ path: `docs/screens/issue-46/after-picture-loaded-${device}-${theme}.png` });
    }
  }
});
