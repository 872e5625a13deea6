// Screenshots for issue 46's profile round (a profile to link from a CV with verified links and a
// "see as visitor" preview, the profile editor with its picture crop, the newcomer's people to
// follow), desktop and phone, light and dark, for docs/screens/issue-46/. Against a running worker
// that trusts x-test-client (`E2E_PORT=8831 node scripts/e2e-server.mjs`):
//   node scripts/screens-profile.mjs http://127.0.0.1:8831 docs/screens/issue-46 before [profile,editor,...]
// The same pages are shot whatever the build holds, so a run before a change and one after compare.
import { writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { chromium } from "@playwright/test";
import {
  eachVariant,
  gracesFirstJob,
  person as newPerson,
  signedInContext,
  stagedArgs,
  visitorContext,
} from "./screens-kit.mjs";
import { scene } from "./seed-images.mjs";

const shots = stagedArgs("screens-profile.mjs");
const { base, stage, wanted } = shots;
const person = (tag, name) => newPerson(shots, tag, name);

// A personal site that links back to the profile with rel="me" (the worker fetches it to verify).
const backTo = new Map();
const site = http.createServer((req, res) => {
  res.setHeader("content-type", "text/html");
  res.end(`<html><head><link rel="me" href="${backTo.get(req.url) ?? ""}"></head><body>Home page</body></html>`);
});
await new Promise((r) => site.listen(0, "127.0.0.1", r));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

const PEOPLE = [
  ["Radia Perl", "Networks that heal themselves.", "networks"],
  ["Hedy Lam", "Radio, frequency hopping, film.", "radio"],
  ["Tim Lee", "Keeping the web open.", "web"],
  ["Kat Johnson", "Trajectories by hand.", "space"],
  ["Don Knuth", "Literate programs.", "craft"],
  ["Dennis R", "Small sharp tools.", "unix"],
  ["Alan T", "Machines and morphogenesis.", "ai"],
  ["Mary Keller", "Compilers and teaching.", "craft"],
  ["Jean Bartik", "ENIAC programmer.", "history"],
  ["Frances Allen", "Optimising compilers.", "craft"],
  ["Barbara Liskov", "Abstraction and substitution.", "craft"],
  ["Vint Cerf", "Packets, everywhere.", "networks"],
  ["Sophie Wilson", "Instruction sets for phones.", "space"],
  ["Karen Jones", "Search and relevance.", "ai"],
];

async function world(v) {
  const grace = await person(`grace${v}`, "Grace Hopper");
  backTo.set(`/${grace.username}`, `${base}/${grace.username}`);
  await grace.api.patch("/v1/users", {
    data: {
      name: "Grace Hopper",
      descr: "Rear admiral, compiler pioneer. I write about making machines speak our language.",
      headline: "Compiler engineer · COBOL co-designer",
      location: "Arlington, Virginia",
      links: [
        { name: "Website", url: `${siteUrl}/${grace.username}` },
        { name: "GitHub", url: "https://github.example/ghopper" },
      ],
    },
  });
  await gracesFirstJob(grace);
  return { grace };
}

/** People who have written, for a newcomer's suggestions (once per run). */
async function crowd() {
  for (const [i, [name, descr, tag]] of PEOPLE.entries()) {
    const p = await person(`crowd${i}x`, name);
    await p.api.patch("/v1/users", { data: { name, descr } });
    await p.api.post("/v1/notes", { data: { label: "idea", content: `<p>Thinking about #${tag} today.</p>` } });
  }
}

// A landscape photo to crop into a square avatar.
const photo = `${tmpdir()}/notex-crop-photo.webp`;
writeFileSync(photo, await scene("#7dd3fc", "#1e3a8a", 3));

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
if (wanted("onboarding")) await crowd();
await eachVariant(shots, async ({ viewport, theme, v, snap }) => {
  const { grace } = await world(v);
  if (wanted("profile")) {
    const visitor = await visitorContext(browser, shots, viewport, theme);
    const p = await visitor.newPage();
    await p.goto(`${base}/${grace.username}`);
    await snap(p, "profile-links");
    await visitor.close();
  }
  const own = await signedInContext(browser, shots, viewport, theme, grace.username);
  const page = await own.newPage();
  if (wanted("preview")) {
    await page.goto(`${base}/${grace.username}?as=visitor`);
    await snap(page, "profile-see-as-visitor");
  }
  // Before this round the profile was edited only in the profile's dialog.
  const editor = stage === "before" ? `${base}/${grace.username}?dialog=edit-profile` : `${base}/settings/profile`;
  if (wanted("editor")) {
    await page.goto(editor);
    await snap(page, "profile-editor", true);
  }
  if (wanted("crop")) {
    await page.goto(editor);
    const input = page.getByLabel("Avatar", { exact: true });
    await input.waitFor({ state: "attached" });
    await input.setInputFiles(photo);
    await page.waitForTimeout(800);
    await snap(page, "avatar-crop");
  }
  await own.close();
  if (wanted("onboarding")) {
    const newcomer = await person(`new${v}`, "Nia Newcomer");
    const ctx = await signedInContext(browser, shots, viewport, theme, newcomer.username);
    const p = await ctx.newPage();
    await p.goto(`${base}/`);
    await snap(p, "onboarding-home");
    await p.goto(`${base}/welcome`);
    await snap(p, "onboarding-people", true);
    await ctx.close();
  }
});
await browser.close();
site.close();
