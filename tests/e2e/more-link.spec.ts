// A list longer than a page ends in the one More link (MoreLink): a real link to the next page
// (rel="next"), which without JavaScript opens it and with JavaScript loads it in place on scroll.
import type { Page } from "@playwright/test";
import { expect, othersNotes, test, uniq } from "./fixtures";

/** Checks the list at `path` (21 notes, newest first) goes on past its first page. */
async function goesOnPastOnePage(page: Page, js: boolean, path: string, texts: string[]) {
  await page.goto(path);
  const list = page.locator(".note-list");
  await expect(list.getByText(texts[20])).toBeVisible();
  await expect(list.getByText(texts[0], { exact: true })).toHaveCount(0);
  const more = list.getByRole("link", { name: "More", exact: true });
  await expect(more).toHaveAttribute("rel", "next");
  await expect(more).toHaveAttribute("href", /page=2/);
  const oldest = list.getByText(texts[0], { exact: true });
  if (js) {
    // Scrolling to the end loads the next page in place.
    await expect(async () => {
      await page.mouse.wheel(0, 20000);
      await expect(oldest).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get("page")).toBeNull();
  } else {
    await more.click();
    await expect(page).toHaveURL(/page=2/);
    await expect(oldest).toBeVisible();
  }
}

test("a tag's notes past one page go on through a More link, with or without JavaScript", async ({
  page,
  js,
  playwright,
}) => {
  test.setTimeout(120_000);
  // One more than a page (20): the oldest is on the second page.
  const tag = uniq("pg");
  const texts = Array.from({ length: 21 }, (_, i) => `Page note ${i + 1} #${tag}`);
  await othersNotes(playwright, ...texts);
  await goesOnPastOnePage(page, js, `/tag/${tag}`, texts);
});

test("a profile's Notes tab past one page goes on the same way", async ({ page, js, playwright }) => {
  test.setTimeout(120_000);
  const texts = Array.from({ length: 21 }, (_, i) => `Profile note ${i + 1} ${uniq("pn")}`);
  const { username } = await othersNotes(playwright, ...texts);
  await goesOnPastOnePage(page, js, `/${username}?t=notes`, texts);
});
