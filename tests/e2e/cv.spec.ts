// Leaving with a CV: the profile links a printable CV and its JSON Resume; the CV page prints as
// paper (no app around it) and offers Save as PDF, with JavaScript (the print dialog) and without
// it (how to print, shown in place).
import { expect, signedIn, test } from "./fixtures";

const FOLDERS = [
  {
    type: "Company",
    name: "Analytical Engines",
    role: "Lead engineer",
    start_month: "2021-03",
    descr: "Led the engine team.",
  },
  { type: "Company", name: "Babbage & Co", role: "Programmer", start_month: "2017-01", end_month: "2021-02" },
  { type: "School", name: "Open University", role: "BSc Mathematics", start_month: "2012-09", end_month: "2016-06" },
  { type: "Certification", name: "Cloud Architect", role: "Example Authority", start_month: "2022-05" },
  {
    type: "Project",
    name: "Difference engine",
    role: "Maintainer",
    start_month: "2019-01",
    link: "https://example.org/de",
  },
  { type: "Skill", name: "TypeScript" },
  { type: "Skill", name: "Algebra" },
  { type: "Language", name: "French", descr: "Professional working proficiency" },
];

test("the profile links the CV; the CV prints without the app and offers Save as PDF", async ({ page, js }) => {
  const a = await signedIn(page, "Ada Lovelace");
  for (const f of FOLDERS) expect((await page.request.post("/v1/folders", { data: f })).status()).toBe(201);
  await page.goto(`/${a.username}`);
  await expect(page.getByRole("link", { name: "JSON Resume" })).toHaveAttribute("href", `/${a.username}/resume.json`);
  await page.getByRole("link", { name: "Printable CV" }).click();
  await expect(page).toHaveURL(`/${a.username}/cv`);
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  await expect(page.getByText("Lead engineer at Analytical Engines")).toBeVisible();
  await expect(page.locator(".cv-section-block h2")).toHaveText([
    "Experience",
    "Education",
    "Licenses & certifications",
    "Projects",
    "Skills",
    "Languages",
  ]);
  const experience = page.getByRole("region", { name: "Experience" });
  await expect(experience.getByText("Mar 2021 – Present")).toBeVisible();
  await expect(experience.getByText("Jan 2017 – Feb 2021")).toBeVisible();

  // Printed: the sheet alone.
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".topbar")).toBeHidden();
  await expect(page.getByRole("button", { name: "Save as PDF" })).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Ada Lovelace" })).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  if (js) {
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed++;
      };
    });
    await page.getByRole("button", { name: "Save as PDF" }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await expect(page.getByText("print it (Ctrl+P")).toBeHidden();
  } else {
    await page.getByRole("button", { name: "Save as PDF" }).click();
    await expect(page.getByText("print it (Ctrl+P, or ⌘P on a Mac) and choose “Save as PDF”")).toBeVisible();
  }
});

test("someone with no such name has no CV", async ({ page }) => {
  const res = await page.goto("/nobody_here_cv/cv");
  expect(res?.status()).toBe(404);
});
