// Screenshots for issue 46's second round (search's Top view, the profile and CV, pictures, the
// experience form on a phone), desktop and phone, light and dark, for docs/screens/issue-46/.
// Against a running worker that trusts x-test-client (`E2E_PORT=8831 node scripts/e2e-server.mjs`):
//   node scripts/screens-firstlook.mjs http://127.0.0.1:8831 docs/screens/issue-46 before [search,cv,...]
// The same pages are shot whatever the build holds, so a run before a change and one after compare.
import { chromium } from "@playwright/test";
import {
  eachVariant,
  gracesFirstJob,
  person as newPerson,
  signedInContext,
  stagedArgs,
  visitorContext,
} from "./screens-kit.mjs";

const shots = stagedArgs("screens-firstlook.mjs");
const { base, wanted } = shots;
const person = (tag, name) => newPerson(shots, tag, name);

async function world(v) {
  const grace = await person(`grace${v}`, `Grace Hopper${v}`);
  const ada = await person(`ada${v}`, "Ada Lovelace");
  await grace.api.patch("/v1/users", { data: { name: `Grace Hopper${v}`, descr: "Rear admiral, compiler pioneer." } });
  await gracesFirstJob(grace);
  await grace.api.post("/v1/folders", {
    data: { type: "Project", name: `Hopper${v} compiler papers`, descr: "Notes on FLOW-MATIC and COBOL." },
  });
  await ada.api.post("/v1/notes", {
    data: { label: "idea", content: `<p>Reading Hopper${v} on compilers today #hopper${v}</p>` },
  });
  return { grace, ada };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
await eachVariant(shots, async ({ device, viewport, theme, v, snap }) => {
  const { grace, ada } = await world(v);
  const context = await signedInContext(browser, shots, viewport, theme, ada.username);
  const page = await context.newPage();
  if (wanted("search")) {
    await page.goto(`${base}/search?q=hopper${v}`);
    await snap(page, "search-top");
  }
  if (wanted("cv")) {
    await page.goto(`${base}/${grace.username}?view=cv`);
    await snap(page, "profile-cv", true);
  }
  if (wanted("experience") && device === "phone") {
    const own = await signedInContext(browser, shots, viewport, theme, grace.username);
    const p = await own.newPage();
    await p.goto(`${base}/${grace.username}?dialog=folder&ftype=Company`);
    await p.getByLabel("Start").fill("2024-01");
    await snap(p, "experience-form");
    await own.close();
  }
  if (wanted("follow")) {
    const visitor = await visitorContext(browser, shots, viewport, theme);
    const p = await visitor.newPage();
    await p.goto(`${base}/${grace.username}`);
    await snap(p, "profile-visitor");
    await p.goto(`${base}/${grace.username}?dialog=follow`);
    await snap(p, "remote-follow");
    await visitor.close();
  }
  await context.close();
});
await browser.close();
