// Screenshots for the record (docs/screens/issue-45/): the printable CV, the import pages (LinkedIn,
// the Mastodon CSVs and a finished job), Moving, and Blocked servers,
// desktop (1280) and phone (390), light and dark. Only with SCREENS=1 (pictures to look at, not checks).
import { expect, signedIn, test } from "./fixtures";
import { linkedinZip } from "./linkedin-zip";

test.skip(!process.env.SCREENS, "screenshots only with SCREENS=1");

const DEVICES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

const PORTFOLIO = [
  {
    type: "Company",
    name: "Analytical Engines",
    role: "Lead engineer",
    start_month: "2021-03",
    descr: "Led a team of six building the edge platform; cut p95 latency by 40%.",
  },
  {
    type: "Company",
    name: "Babbage & Co",
    role: "Programmer",
    start_month: "2017-01",
    end_month: "2021-02",
    descr: "Wrote the first published algorithm for the engine.",
  },
  { type: "School", name: "Open University", role: "BSc Mathematics", start_month: "2012-09", end_month: "2016-06" },
  { type: "Certification", name: "Cloud Architect", role: "Example Authority", start_month: "2022-05" },
  {
    type: "Project",
    name: "Difference engine",
    role: "Maintainer",
    start_month: "2019-01",
    link: "https://example.org/de",
    descr: "An open-source simulator of the difference engine.",
  },
  { type: "Organization", name: "Code Club", role: "Mentor", start_month: "2019-01" },
  { type: "Skill", name: "TypeScript" },
  { type: "Skill", name: "Distributed systems" },
  { type: "Skill", name: "Algebra" },
  { type: "Language", name: "French", descr: "Professional working proficiency" },
  { type: "Language", name: "Italian", descr: "Elementary proficiency" },
];

async function shoot(page: import("@playwright/test").Page, baseURL: string | undefined, name: string, path: string) {
  for (const [device, viewport] of Object.entries(DEVICES)) {
    for (const theme of ["light", "dark"]) {
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "theme", value: theme, url: baseURL ?? "" }]);
      await page.goto(path);
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `docs/screens/issue-45/${name}-${device}-${theme}.png`, fullPage: true });
    }
  }
}

test("the printable CV", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const a = await signedIn(page, "Ada Lovelace");
  await page.request.patch("/v1/users", {
    data: {
      name: "Ada Lovelace",
      descr: "Engineer and mathematician. I write notes about engines, algorithms and the people who build them.",
    },
  });
  for (const f of PORTFOLIO) expect((await page.request.post("/v1/folders", { data: f })).status()).toBe(201);
  await shoot(page, baseURL, "cv", `/${a.username}/cv`);
  await page.emulateMedia({ media: "print" });
  await page.setViewportSize({ width: 800, height: 1100 });
  await page.goto(`/${a.username}/cv`);
  await page.screenshot({ path: "docs/screens/issue-45/cv-print.png", fullPage: true });
});

test("the import pages: upload and preview", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signedIn(page, "Ada Lovelace");
  await page.request.post("/v1/folders", { data: { type: "Skill", name: "Algebra" } });
  await shoot(page, baseURL, "import-upload", "/settings/import");
  for (const [device, viewport] of Object.entries(DEVICES)) {
    for (const theme of ["light", "dark"]) {
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "theme", value: theme, url: baseURL ?? "" }]);
      await page.goto("/settings/import");
      await page
        .getByLabel("LinkedIn export (.zip, up to 10 MB)")
        .setInputFiles({ name: "linkedin.zip", mimeType: "application/zip", buffer: linkedinZip() });
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("heading", { name: "Choose what to import" })).toBeVisible();
      await page.screenshot({ path: `docs/screens/issue-45/import-preview-${device}-${theme}.png`, fullPage: true });
    }
  }
});

test("the Mastodon CSV import: the form, and a finished job with its failures", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await signedIn(page, "Ada Lovelace");
  await shoot(page, baseURL, "csv-import", "/settings/import");
  const res = await page.request.post("/v1/imports/mastodon", {
    multipart: {
      kind: "domain_blocks",
      mode: "merge",
      file: {
        name: "blocked_domains.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("spam.example\nads.example\nnot a domain\nspam.example\n"),
      },
    },
  });
  expect(res.status()).toBe(202);
  const job = await res.json();
  await expect
    .poll(async () => (await (await page.request.get(`/v1/imports/jobs/${job.id}`)).json()).state, { timeout: 60_000 })
    .toBe("done");
  await shoot(page, baseURL, "csv-job", `/settings/import/jobs/${job.id}`);
});

test("moving accounts: aliases and moving out", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signedIn(page, "Ada Lovelace");
  await shoot(page, baseURL, "moving", "/settings/moving");
});

test("blocked servers", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signedIn(page, "Ada Lovelace");
  for (const domain of ["spam.example", "ads.example", "noisy.social"])
    expect((await page.request.post("/v1/domain-blocks", { data: { domain } })).status()).toBe(200);
  await shoot(page, baseURL, "blocked-servers", "/settings/domains");
});
