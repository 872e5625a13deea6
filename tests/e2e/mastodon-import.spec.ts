// Settings → Import, Mastodon's CSV: the file becomes a job and its page shows the progress until
// it is done — with JavaScript the page reads the job again and the bar moves without a reload;
// without, the page refreshes itself — then the rows that were not imported, with why. A file of
// the wrong kind is refused on the import page with its reason. The queue consumer is the real one.
import { expect, otherPerson, signedIn, test } from "./fixtures";

test("a follows CSV runs as a job whose page shows its progress until it is done", async ({
  page,
  playwright,
  baseURL,
  js,
}) => {
  await signedIn(page, "Ada Mover");
  const host = new URL(baseURL ?? "").host;
  const [b, c] = [await otherPerson(playwright), await otherPerson(playwright)];
  const csv = [
    "\uFEFFAccount address,Show boosts,Notify on new posts,Languages",
    `${b.username}@${host},true,false,`,
    `${c.username}@${host},true,false,`,
    `nobody_here@${host},true,false,`,
    `${b.username}@${host},true,false,`,
  ].join("\r\n");
  await page.goto("/settings/import");
  await page.getByRole("combobox", { name: /What the file holds/ }).selectOption("following");
  await page
    .getByLabel("Mastodon CSV (up to 2 MB)")
    .setInputFiles({ name: "following_accounts.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/import\/jobs\/\d+$/);
  await expect(page.getByRole("heading", { name: "Follows from following_accounts.csv" })).toBeVisible();
  // With JavaScript the page is never loaded again: a mark left on it stays.
  if (js) await page.evaluate(() => Object.assign(window, { stayed: true }));
  await expect(page.getByText("Done", { exact: true })).toBeVisible({ timeout: 30_000 });
  // The total is the rows to import; the row refused on reading (a duplicate) is listed apart, with why.
  await expect(page.getByText(/2 imported · 1 not imported · of 3 to import/)).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Progress" })).toHaveAttribute("max", "3");
  await expect(page.getByRole("progressbar", { name: "Progress" })).toHaveAttribute("value", "3");
  const failed = page.getByRole("group").filter({ hasText: "Not imported (1)" });
  await expect(failed.getByText(`Row 4, nobody_here@${host}: no such account could be found`)).toBeVisible();
  const refused = page.getByRole("group").filter({ hasText: "Left out when the file was read (1)" });
  await expect(refused.getByText(`Row 5, ${b.username}@${host}: a duplicate of row 2`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel import" })).toHaveCount(0);
  if (js) expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await page.goto("/settings/import");
  await expect(page.getByRole("link", { name: "Follows · following_accounts.csv" })).toBeVisible();
});

test("a file of the wrong kind is refused with its reason, and nothing starts", async ({ page }) => {
  await signedIn(page, "Ada Wrongkind");
  await page.goto("/settings/import");
  await page.getByRole("combobox", { name: /What the file holds/ }).selectOption("blocks");
  await page.getByLabel("Mastodon CSV (up to 2 MB)").setInputFiles({
    name: "bookmarks.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("https://example.social/@a/1\nhttps://example.social/@a/2\n"),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Most rows of this file are not account addresses. Please choose blocked_accounts.csv from your Mastodon export.",
  );
  await expect(page.getByRole("heading", { name: "Your imports" })).toHaveCount(0);
});
