// Screenshots of a conversation (a note page with replies three levels deep and more) and of the
// notifications page, desktop and phone, light and dark, for docs/screens/. Against a running
// worker that trusts x-test-client (the e2e server: `E2E_PORT=8881 node scripts/e2e-server.mjs`):
//   node scripts/screens-conversation.mjs http://127.0.0.1:8881 docs/screens/issue-36/after
// Each variant gets its own people, so every notifications page is seen unread, as on first open.
import { chromium } from "@playwright/test";
import { person as newPerson, screensArgs, signedInContext, VARIANTS } from "./screens-kit.mjs";

const shots = screensArgs("screens-conversation.mjs");
const { base, out } = shots;
const person = (tag, name) => newPerson(shots, tag, name);

async function call(res) {
  const r = await res;
  if (!r.ok()) throw new Error(`${r.url()}: ${r.status()} ${await r.text()}`);
  return r.json();
}

const reply = async (who, parent, text) =>
  (await call(who.api.post("/v1/replies", { data: { parent, content: `<p>${text}</p>` } }))).id;

/** A note of Ada's with a conversation under it, and every kind of notice for her. */
async function world(v) {
  const ada = await person(`ada${v}`, "Ada Lovelace");
  const grace = await person(`grace${v}`, "Grace Hopper");
  const alan = await person(`alan${v}`, "Alan Turing");
  const kath = await person(`kath${v}`, "Katherine Johnson");
  const { note } = await call(
    ada.api.post("/v1/notes", {
      data: {
        label: "idea",
        content:
          "<p>The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves. #computing</p>",
      },
    }),
  );
  const g1 = await reply(grace, -note.id, "So the cards are the program. Who punches them?");
  const a1 = await reply(ada, g1, "Anyone patient enough. The engine does not care who wrote the pattern.");
  const t1 = await reply(alan, a1, "Then the interesting question is whether it could write its own cards.");
  const k1 = await reply(kath, t1, "Only if you check its arithmetic by hand first.");
  await reply(ada, k1, "Always. Trust, but verify the trajectory.");
  await reply(grace, a1, "A compiler, in other words. I would like one of those.");
  const t2 = await reply(alan, -note.id, "Lovely image. The loom is the first machine that reads.");
  await reply(kath, t2, "And the first one that could be wrong in a pattern.");
  await call(grace.api.post(`/v1/likes/${note.id}?t=note`));
  await call(alan.api.post("/v1/renotes", { data: { renote_id: note.id, content: "" } }));
  await call(kath.api.post(`/v1/follows/${ada.id}`));
  await call(grace.api.post(`/v1/follows/${ada.id}`));
  await call(ada.api.post(`/v1/follows/${grace.id}`));
  await call(
    kath.api.post("/v1/notes", { data: { label: "insight", content: `<p>Reading @${ada.username} on looms.</p>` } }),
  );
  return { ada, note: note.id };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
for (const [device, viewport] of VARIANTS) {
  for (const theme of ["light", "dark"]) {
    const { ada, note } = await world(`${device[0]}${theme[0]}`);
    const context = await signedInContext(browser, shots, viewport, theme, ada.username);
    const page = await context.newPage();
    // A later page view may come as the app shell (worker/lib/shell.ts): shot once its data is in.
    // A phone's fixed bottom bar would sit over the middle of a full-page shot: there the shot is
    // the screen, scrolled to `at` (the replies).
    const shoot = async (path, name, at) => {
      await page.goto(`${base}${path}`);
      await page.locator("html[data-ready]").waitFor({ state: "attached" });
      await page.locator("main h1").first().waitFor();
      await page.waitForLoadState("networkidle");
      await page.evaluate(() => document.fonts.ready);
      const phone = device === "phone";
      if (phone && at) await page.locator(at).evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: `${out}/${name}-${device}-${theme}.png`, fullPage: !phone });
    };
    await shoot(`/${ada.username}/note/${note}`, "thread", "#replies .convo-root");
    await shoot("/notifications", "notifications");
    await context.close();
  }
}
await browser.close();
console.log(`screens: 8 images in ${out}`);
