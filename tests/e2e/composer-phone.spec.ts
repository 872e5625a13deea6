import { expect, fillNote, signedIn, test } from "./fixtures";

// The composer on a phone and on a desktop: a pasted long link wraps inside the editor, and on a
// phone the x-label and Save stay in sight above the on-screen keyboard.

// No hyphen or slash to break at for 300 characters: only wrapping anywhere keeps it in.
const LONG_URL = `https://example.com/${"averylongpathsegment".repeat(15)}`;

for (const width of [390, 1280]) {
  test(`a long URL wraps inside the composer at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await signedIn(page);
    await page.goto("/?dialog=note");
    const dialog = page.getByRole("dialog", { name: "Take a note" });
    await fillNote(dialog, `Read this ${LONG_URL} today`);
    // Nothing in the composer reaches past the dialog's edge, and the text box does not scroll sideways.
    const past = await dialog.evaluate((d) => {
      const edge = d.getBoundingClientRect().right + 1;
      return [...d.querySelectorAll("form.composer *")]
        .filter((el) => el.getBoundingClientRect().right > edge)
        .map((el) => `${el.tagName}.${el.className}`);
    });
    expect(past).toEqual([]);
    const box = dialog.locator(".editor-body, textarea[name=text]").first();
    expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
    expect((await dialog.boundingBox())?.width ?? 0).toBeLessThanOrEqual(width);
  });
}

test("on a phone with the keyboard up, Save and the x-label sit at the top of the composer", async ({ page }) => {
  // 390 × 844 with an on-screen keyboard's height (about 340 px) taken away.
  await page.setViewportSize({ width: 390, height: 500 });
  await signedIn(page);
  await page.goto("/?dialog=note");
  const dialog = page.getByRole("dialog", { name: "Take a note" });
  await fillNote(dialog, "Line\n".repeat(30));
  const save = dialog.getByRole("button", { name: "Save" });
  await expect(save).toBeInViewport();
  const b = await save.boundingBox();
  expect(b?.y ?? 999).toBeLessThan(160);
  expect((b?.x ?? 0) + (b?.width ?? 0)).toBeGreaterThan(390 - 80);
  await expect(dialog.locator(".label-chip")).toBeInViewport();
});
