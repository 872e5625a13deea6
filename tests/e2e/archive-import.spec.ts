// Settings → Import → Mastodon archive: an archive (built in code) checked and previewed with its
// counts and what stays behind, then imported by an import job whose page shows it done, and the
// notes on the profile with their origin; a file that is no zip gets its reason. With and without
// JavaScript. With SCREENS=1, the page's screenshots (docs/screens/issue-45/).
import { archive, SAMPLE, SAMPLE_FILES } from "../archive";
import { expect, signedIn, test } from "./fixtures";

const zip = () => Buffer.from(archive({ items: SAMPLE, files: SAMPLE_FILES }));
const LABEL = "Mastodon archive (.zip, up to 100 MB)";

async function preview(page: import("@playwright/test").Page) {
  await page.goto("/settings");
  await page.getByRole("link", { name: "Bring your posts from a Mastodon archive" }).click();
  await expect(page).toHaveURL("/settings/import/archive");
  await page.getByLabel(LABEL).setInputFiles({ name: "archive.zip", mimeType: "application/zip", buffer: zip() });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: "What your archive holds" })).toBeVisible();
}

test("preview a Mastodon archive, import it, and find the posts on the profile", async ({ page }) => {
  test.setTimeout(90_000);
  const a = await signedIn(page, "Ana Archive");
  await preview(page);
  const counts = page.locator(".archive-counts");
  await expect(counts.getByText("Posts")).toBeVisible();
  await expect(counts.locator("div").nth(0).locator("dd")).toHaveText("3");
  await expect(counts.locator("div").nth(1).locator("dd")).toHaveText("2");
  await expect(counts.locator("div").nth(2).locator("dd")).toHaveText("1");
  await expect(counts.locator("div").nth(3).locator("dd")).toHaveText("4");
  await page.getByText("What stays behind, and why (5)").click();
  await expect(page.getByText(": followers-only")).toBeVisible();
  await page.getByRole("checkbox", { name: /Replace my name, bio and pictures/ }).check();
  await page.getByRole("button", { name: "Import 5 posts" }).click();
  await expect(page).toHaveURL(/\/settings\/import\/jobs\/\d+/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/Done|done/).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await page.goto(`/${a.username}?t=notes`);
  await expect(page.getByText("Hello from the old place")).toBeVisible();
  await expect(page.getByRole("link", { name: "from old.example" }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Ana from Old" })).toBeVisible();
});

test("start over drops the upload; a file that is no zip is refused with its reason", async ({ page }) => {
  await signedIn(page, "Ana Startover");
  await preview(page);
  await page.getByRole("button", { name: "Start over" }).click();
  await expect(page.getByLabel(LABEL)).toBeVisible();
  await page
    .getByLabel(LABEL)
    .setInputFiles({ name: "archive.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip at all") });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("alert")).toHaveText("The file is not a zip archive.");
});

const DEVICES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

test("screenshots of the archive import page", async ({ page, baseURL }) => {
  test.skip(!process.env.SCREENS, "screenshots only with SCREENS=1");
  test.setTimeout(120_000);
  await signedIn(page, "Ana Archive");
  for (const [device, viewport] of Object.entries(DEVICES)) {
    for (const theme of ["light", "dark"]) {
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "theme", value: theme, url: baseURL ?? "" }]);
      await page.goto("/settings/import/archive");
      await page.screenshot({ path: `docs/screens/issue-45/archive-upload-${device}-${theme}.png`, fullPage: true });
      await page.getByLabel(LABEL).setInputFiles({ name: "archive.zip", mimeType: "application/zip", buffer: zip() });
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("heading", { name: "What your archive holds" })).toBeVisible();
      await page.getByText(/What stays behind/).click();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `docs/screens/issue-45/archive-preview-${device}-${theme}.png`, fullPage: true });
    }
  }
});
