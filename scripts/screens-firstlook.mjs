// Screenshots for issue 46's second round (search's Top view, the profile and CV, pictures, the
// experience form on a phone), desktop and phone, light and dark, for docs/screens/issue-46/.
// Against a running worker that trusts x-test-client (`E2E_PORT=8831 node scripts/e2e-server.mjs`):
//   node scripts/screens-firstlook.mjs http://127.0.0.1:8831 docs/screens/issue-46 before [search,cv,...]
// The same pages are shot whatever the build holds, so a run before a change and one after compare.
import { chromium } from "@playwright/test";
import { person as newPerson, screensArgs, signedInContext, VARIANTS } from "./screens-kit.mjs";

const shots = screensArgs("screens-firstlook.mjs");
const { base, out } = shots;
const [, , , , stage = "after", only = ""] = process.argv;
const wanted = (name) => !only || only.split(",").includes(name);
const person = (tag, name) => newPerson(shots, tag, name);

async function world(v) {
  const grace = await person(`grace${v}`, `Grace Hopper${v}`);
  const ada = await person(`ada${v}`, "Ada Lovelace");
  await grace.api.patch("/v1/users", { data: { name: `Grace Hopper${v}`, descr: "Rear admiral, compiler pioneer." } });
  await grace.api.post("/v1/folders", {
    data: {
      type: "Company",
      name: "Remington Rand",
      role: "Senior mathematician",
      start_month: "2024-01",
      descr: "Built the A-0 compiler for the UNIVAC I.",
    },
  });
  await grace.api.post("/v1/folders", {
    data: { type: "Project", name: `Hopper${v} compiler papers`, descr: "Notes on FLOW-MATIC and COBOL." },
  });
  await ada.api.post("/v1/notes", {
    data: { label: "idea", content: `<p>Reading Hopper${v} on compilers today #hopper${v}</p>` },
  });
  return { grace, ada };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
for (const [device, viewport] of VARIANTS) {
  for (const theme of ["light", "dark"]) {
    const v = `${device[0]}${theme[0]}${shots.run}`.toLowerCase();
    const { grace, ada } = await world(v);
    const context = await signedInContext(browser, shots, viewport, theme, ada.username);
    await context.emulateMedia?.({ colorScheme: theme });
    const page = await context.newPage();
    const shot = async (name, fullPage = false) => {
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `${out}/${stage}-${name}-${device}-${theme}.png`, fullPage });
    };
    if (wanted("search")) {
      await page.goto(`${base}/search?q=hopper${v}`);
      await shot("search-top");
    }
    if (wanted("cv")) {
      await page.goto(`${base}/${grace.username}?view=cv`);
      await shot("profile-cv", true);
    }
    if (wanted("experience") && device === "phone") {
      const own = await signedInContext(browser, shots, viewport, theme, grace.username);
      const p = await own.newPage();
      await p.goto(`${base}/${grace.username}?dialog=folder&ftype=Company`);
      await p.getByLabel("Start").fill("2024-01");
      await p.evaluate(() => document.fonts.ready);
      await p.screenshot({ path: `${out}/${stage}-experience-form-${device}-${theme}.png` });
      await own.close();
    }
    if (wanted("follow")) {
      const visitor = await browser.newContext({ viewport, colorScheme: theme });
      await visitor.addCookies([{ name: "theme", value: theme, url: base }]);
      const p = await visitor.newPage();
      await p.goto(`${base}/${grace.username}`);
      await p.evaluate(() => document.fonts.ready);
      await p.screenshot({ path: `${out}/${stage}-profile-visitor-${device}-${theme}.png` });
      await p.goto(`${base}/${grace.username}?dialog=follow`);
      await p.evaluate(() => document.fonts.ready);
      await p.screenshot({ path: `${out}/${stage}-remote-follow-${device}-${theme}.png` });
      await visitor.close();
    }
    await context.close();
  }
}
await browser.close();
