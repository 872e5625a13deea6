// A list longer than a page ends in the one More link (MoreLink): a real link to the next page
// (rel="next"), which without JavaScript opens it and with JavaScript loads it in place on scroll.
import { expect, othersNotes, test, uniq } from "./fixtures";

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
  await page.goto(`/tag/${tag}`);
  const list = page.locator(".note-list");
  await expect(list.getByText(`Page note 21 #${tag}`)).toBeVisible();
  await expect(list.getByText(`Page note 1 #${tag}`, { exact: true })).toHaveCount(0);
  const more = list.getByRole("link", { name: "More", exact: true });
  await expect(more).toHaveAttribute("rel", "next");
  await expect(more).toHaveAttribute("href", /page=2/);
  const oldest = list.getByText(`Page note 1 #${tag}`, { exact: true });
  if (js) {
    // Scrolling to the end loads the next page in place.
    await expect(async () => {
      await page.mouse.wheel(0, 20000);
      await expect(oldest).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
  } else {
    await more.click();
    await expect(page).toHaveURL(/page=2/);
    await expect(oldest).toBeVisible();
  }
});
