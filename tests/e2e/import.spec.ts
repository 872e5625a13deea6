// Settings → Import: a LinkedIn export (built here) previewed with a checkbox per row, the chosen
// rows imported as x-folders, a second import adding nothing; a file that is not a zip gets its
// reason. With and without JavaScript.
import { expect, signedIn, test } from "./fixtures";
import { linkedinZip } from "./linkedin-zip";

test("import a LinkedIn export: preview, choose, import; a second import adds nothing", async ({ page }) => {
  const a = await signedIn(page, "Ada Importer");
  await page.goto("/settings");
  await page.getByRole("link", { name: "Bring your career from LinkedIn as x-folders" }).click();
  await expect(page).toHaveURL("/settings/import");
  await page
    .getByLabel("LinkedIn export (.zip, up to 10 MB)")
    .setInputFiles({ name: "linkedin.zip", mimeType: "application/zip", buffer: linkedinZip() });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: "Choose what to import" })).toBeVisible();
  await expect(page.getByText("6 found, 6 new.")).toBeVisible();
  await expect(page.getByText("Skills.csv, row 4: a duplicate of “Algebra”")).toBeVisible();
  await page.getByRole("checkbox", { name: /Babbage & Co/ }).uncheck();
  await page.getByRole("button", { name: "Import selected" }).click();
  await expect(page.getByRole("heading", { name: "Imported" })).toBeVisible();
  await expect(page.getByText("5 new x-folders.")).toBeVisible();
  await page.getByRole("link", { name: "Printable CV" }).click();
  await expect(page).toHaveURL(`/${a.username}/cv`);
  await expect(page.getByText("Lead engineer at Analytical Engines")).toBeVisible();
  await expect(page.getByText("Babbage & Co")).toHaveCount(0);

  await page.goto("/settings/import");
  await page
    .getByLabel("LinkedIn export (.zip, up to 10 MB)")
    .setInputFiles({ name: "linkedin.zip", mimeType: "application/zip", buffer: linkedinZip() });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText("6 found, 1 new.")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: /Analytical Engines/ })).toBeDisabled();
  await expect(page.getByText("Already in your x-folders")).toHaveCount(5);
});

test("a file that is not a zip is refused with its reason", async ({ page }) => {
  await signedIn(page, "Ada Wrongfile");
  await page.goto("/settings/import");
  await page
    .getByLabel("LinkedIn export (.zip, up to 10 MB)")
    .setInputFiles({ name: "notes.zip", mimeType: "application/zip", buffer: Buffer.from("Company Name\nAcme\n") });
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("alert")).toHaveText("The file is not a zip archive.");
});
