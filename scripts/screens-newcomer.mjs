// Screenshots of a portfolio as a CV (the X-Folders tab), Settings and the Block confirmation,
// desktop and phone, light and dark, for docs/screens/. Against a running worker that trusts
// x-test-client (the e2e server: `E2E_PORT=8831 node scripts/e2e-server.mjs`):
//   node scripts/screens-newcomer.mjs http://127.0.0.1:8831 docs/screens/issue-36/after
// On a build without the CV view or the Block confirmation, the same pages are shot as they were
// (the folder list; the profile menu whose Block acted at once).
import { chromium } from "@playwright/test";
import { person as newPerson, screensArgs, signedInContext, VARIANTS } from "./screens-kit.mjs";

const shots = screensArgs("screens-newcomer.mjs");
const { base, out } = shots;
const person = (tag, name) => newPerson(shots, tag, name);

const FOLDERS = [
  { type: "Company", name: "Analytical Engines Ltd", role: "Lead programmer", start_month: "2021-03" },
  { type: "Company", name: "Babbage & Sons", role: "Engineer", start_month: "2017-09", end_month: "2021-02" },
  { type: "Organization", name: "Royal Society", role: "Fellow", start_month: "2019-05" },
  {
    type: "School",
    name: "University of London",
    role: "BSc, Mathematics",
    start_month: "2013-09",
    end_month: "2017-06",
  },
  { type: "Certification", name: "Numerical Methods", role: "Cambridge", start_month: "2018-04" },
  { type: "Project", name: "Difference engine notes", role: "Author", start_month: "2022-01" },
  { type: "Skill", name: "Algebra" },
  { type: "Language", name: "French" },
  { type: "Travel", name: "Italy, 1840" },
];

async function world(v) {
  const ada = await person(`ada${v}`, "Ada Lovelace");
  const bob = await person(`bob${v}`, "Charles Babbage");
  await ada.api.patch("/v1/users", {
    data: { name: "Ada Lovelace", descr: "Programmer of engines, poet of numbers." },
  });
  for (const f of FOLDERS) {
    const r = await ada.api.post("/v1/folders", { data: f });
    if (!r.ok()) throw new Error(`folder: ${r.status()} ${await r.text()}`);
  }
  await ada.api.post("/v1/notes", {
    data: { label: "idea", content: "<p>The engine weaves algebraic patterns as the loom weaves flowers.</p>" },
  });
  return { ada, bob };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
for (const [device, viewport] of VARIANTS) {
  for (const theme of ["light", "dark"]) {
    const { ada, bob } = await world(`${device[0]}${theme[0]}`);
    const context = await signedInContext(browser, shots, viewport, theme, bob.username);
    const page = await context.newPage();
    const shot = async (name) => {
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `${out}/${name}-${device}-${theme}.png`, fullPage: name === "cv" });
    };
    // The portfolio, as a visitor to it reads it.
    await page.goto(`${base}/${ada.username}?view=cv`);
    await shot("cv");
    // The Block confirmation (or, before it existed, the menu whose Block acted at once).
    await page.goto(`${base}/${ada.username}?dialog=block&id=${ada.id}&u=${ada.username}`);
    const asked = await page
      .getByRole("dialog")
      .waitFor({ timeout: 8000 })
      .then(() => true)
      .catch(() => false);
    if (!asked) {
      await page.goto(`${base}/${ada.username}`);
      await page.getByLabel("Profile menu").click();
    }
    await shot("block");
    // Settings, as its owner sees it.
    await page.goto(`${base}/settings`);
    await page.addStyleTag({ content: ".sessions { display: none }" });
    await shot("settings");
    await context.close();
  }
}
await browser.close();
