// The portfolio reads like a CV: experience folders with a role and months (form and page), the
// Portfolio tab grouped as a CV beside Filter and Sort, type icons for logos (never a letter
// circle), and a visible RSS link on profile, tag and folder pages.
import { expect, signedIn, test, uniq } from "./fixtures";

test("a company folder takes a role and months, shown on its page and its row", async ({ page }) => {
  const a = await signedIn(page, "Ada Worker");
  await page.goto(`/${a.username}?dialog=folder&ftype=Company`);
  const dialog = page.getByRole("dialog", { name: "New Company" });
  await dialog.getByLabel("Name").fill("Analytical Engines");
  await dialog.getByLabel("Title (optional)").fill("Lead engineer");
  await dialog.getByLabel("Start").fill("2021-03");
  await expect(dialog.getByText("Empty while it is ongoing (Present)")).toBeVisible();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(`/${a.username}/x/analytical-engines`);
  await expect(page.getByText("Lead engineer")).toBeVisible();
  await expect(page.getByText("Mar 2021 – Present")).toBeVisible();
  // The logo is the type's icon on a square, not a letter in a circle.
  const head = page.locator(".folder-head");
  await expect(head.locator(".avatar")).toHaveCount(0);
  await expect(head.locator(".folder-logo svg")).toHaveCount(1);

  await page.goto(`/${a.username}`);
  const row = page.locator(".folder-row", { hasText: "Analytical Engines" });
  await expect(row.getByText("Lead engineer · Company")).toBeVisible();
  await expect(row.getByText("Mar 2021 – Present")).toBeVisible();
  await expect(row.locator(".avatar")).toHaveCount(0);

  // An end before the start is refused with its field's message.
  await page.goto(`/${a.username}?dialog=folder&ftype=School`);
  const school = page.getByRole("dialog", { name: "New School" });
  await school.getByLabel("Name").fill("Home schooling");
  await school.getByLabel("Start").fill("2015-09");
  await school.getByLabel("End").fill("2012-06");
  await school.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("end must not be before start")).toBeVisible();
});

test("the Portfolio tab shows folders grouped as a CV reads, beside Filter and Sort", async ({ page }) => {
  const a = await signedIn(page, "Ada Portfolio");
  const ids: number[] = [];
  for (const f of [
    { type: "Skill", name: "Algebra" },
    { type: "Project", name: "Difference engine", start_month: "2019-01" },
    { type: "School", name: "Home schooling", role: "Mathematics", start_month: "2010-01", end_month: "2015-06" },
    { type: "Company", name: "Babbage & Co", role: "Programmer", start_month: "2019-02", descr: "Built the mill." },
    { type: "Travel", name: "Italy" },
  ]) {
    const res = await page.request.post("/v1/folders", { data: f });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).id);
  }
  for (const text of ["One", "Two", "Three"])
    await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>${text}</p>`, folders: [ids[3]] } });
  await page.goto(`/${a.username}`);
  // The tab says what it is to a visitor; x-folders stay the word inside it.
  await expect(page.getByRole("link", { name: "Portfolio", exact: true })).toHaveAttribute("aria-current", "page");
  // A row reads as a CV line: months and notes together, its description, never "0 notes" or a bare date.
  const job = page.locator(".folder-row", { hasText: "Babbage & Co" });
  await expect(job.getByText("Feb 2019 – Present · 3 notes")).toBeVisible();
  await expect(job.getByText("Built the mill.")).toBeVisible();
  const skill = page.locator(".folder-row", { hasText: "Algebra" });
  await expect(skill).not.toContainText("0 notes");
  await expect(skill.locator("time")).toHaveCount(0);
  await expect(page.getByLabel("Filter")).toBeVisible();
  await expect(page.getByLabel("Sort by")).toBeVisible();
  await page.getByRole("navigation", { name: "Show folders as" }).getByRole("link", { name: "CV" }).click();
  await expect(page).toHaveURL(/view=cv/);
  const sections = page.locator(".cv-section h3");
  await expect(sections).toHaveText(["Experience", "Education", "Projects", "Skills", "Other"]);
  await expect(page.getByRole("region", { name: "Experience" }).getByText("Programmer · Company")).toBeVisible();
  await expect(page.getByRole("region", { name: "Education" }).getByText("Jan 2010 – Jun 2015")).toBeVisible();
  // Filter still applies inside the CV view.
  await page.getByLabel("Filter").selectOption("Skill");
  if (test.info().project.use.javaScriptEnabled === false) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/type=Skill/);
  await expect(page).toHaveURL(/view=cv/);
  await expect(sections).toHaveText(["Skills"]);
});

test("profile, tag and folder pages show a visible RSS link to their feed", async ({ page }) => {
  const a = await signedIn(page, "Ada Feeds");
  const tag = uniq("t");
  await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>Feed me #${tag}</p>` } });
  const folder = await (await page.request.post("/v1/folders", { data: { type: "Project", name: "Feeds" } })).json();
  for (const [path, feed] of [
    [`/${a.username}`, `/${a.username}/rss`],
    [`/tag/${tag}`, `/tag/${tag}/rss`],
    [`/${a.username}/x/${folder.slug}`, `/${a.username}/x/${folder.slug}/rss`],
  ]) {
    await page.goto(path);
    const link = page.getByRole("link", { name: /^RSS feed of/ });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute("href", feed);
    const res = await page.request.get(feed);
    expect(res.status(), feed).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/xml/);
  }
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("the experience form fits the screen: Start and End side by side at one height, Save inside", async ({
    page,
  }) => {
    const a = await signedIn(page, "Ada Phone");
    await page.goto(`/${a.username}?dialog=folder&ftype=Company`);
    const dialog = page.getByRole("dialog", { name: "New Company" });
    await dialog.getByLabel("Start").fill("2021-03");
    const [start, end, save] = await Promise.all(
      [dialog.getByLabel("Start"), dialog.getByLabel("End"), dialog.getByRole("button", { name: "Save" })].map(
        async (l) => (await l.boundingBox()) ?? { x: -1, y: -1, width: 0, height: 0 },
      ),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth)).toBe(true);
    expect(Math.round(start.height)).toBe(Math.round(end.height));
    expect(Math.round(start.y)).toBe(Math.round(end.y));
    for (const box of [start, end, save]) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
  });
});
