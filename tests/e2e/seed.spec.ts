import { execFileSync } from "node:child_process";
import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { rmSync } from "node:fs";
import { startLocalWorker } from "../../scripts/local-worker.mjs";
import { d1Local } from "../../scripts/d1-local.mjs";
import { freePort } from "../../scripts/free-port.mjs";

// `npm run seed` makes a living demo network: what a newcomer running `npm start` sees. Seeded
// twice into a fresh local D1 of its own (idempotent), audited by `npm run recount`, then read
// through a worker of its own, as a visitor.

// A port the system hands out, not E2E_PORT + 5: another worker already listening there (another
// run's e2e server, whose specs post notes in parallel) would answer this spec's pages instead.
const persist = `.wrangler/seed-e2e-${Number(process.env.E2E_PORT ?? 8788) + 5}`;
let port = 0;
let base = "";
let stop: (() => Promise<void>) | null = null;

test.describe.configure({ mode: "serial" });
test.beforeAll(async ({ javaScriptEnabled }) => {
  // The data is the same with JavaScript or without: seeded and read once.
  test.skip(javaScriptEnabled === false, "seeded once, by the js project");
  test.setTimeout(300_000);
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
  rmSync(persist, { recursive: true, force: true });
  execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], {
    env,
    encoding: "utf8",
  });
  for (let run = 0; run < 2; run++) execFileSync("node", ["scripts/seed.mjs", "--persist-to", persist], { env });
  const audit = execFileSync("node", ["scripts/recount.mjs", "--persist-to", persist], { env, encoding: "utf8" });
  expect(audit).toContain("nothing to fix");
  ({ stop } = await startLocalWorker({ port, persist, env }));
});
test.afterAll(async () => {
  await stop?.();
});

test("the demo network: people with pictures, recent notes with photos, threads, likes, renotes, quotes, folders of every type", async ({
  page,
}) => {
  const [counts] = d1Local(
    `select (select count(*) from users) people, (select count(*) from notes where kind = 0) notes,
      (select count(*) from notes where kind = 1) renotes, (select count(*) from notes where kind = 2) quotes,
      (select count(*) from likes) likes, (select count(distinct type) from folders where notenum > 0) types,
      (select count(*) from notes where imgs != '') photos, (select min(created_at) from notes) oldest,
      (select count(*) from users where avatar = '' or cover = '') bare,
      (select count(*) from replies r join replies p on p.id = r.parent_reply_id where p.parent_reply_id is not null) deep;`,
    persist,
  ) as Record<string, number>[];
  expect(counts.people).toBeGreaterThanOrEqual(8);
  expect(counts.notes).toBeGreaterThanOrEqual(40);
  expect(counts.renotes).toBeGreaterThan(0);
  expect(counts.quotes).toBeGreaterThan(0);
  expect(counts.likes).toBeGreaterThan(40);
  expect(counts.types).toBeGreaterThanOrEqual(12);
  expect(counts.photos).toBeGreaterThan(0);
  expect(counts.bare).toBe(0);
  // Replies two levels under a reply, and every note from the last week.
  expect(counts.deep).toBeGreaterThan(0);
  expect(Date.now() - counts.oldest).toBeLessThan(8 * 86_400_000);

  await page.goto(`${base}/`);
  await expect(page.locator("main article").first()).toBeVisible();
  expect(await page.locator("main article").count()).toBeGreaterThanOrEqual(10);
  const photo = page.locator("main article img[src^='/img/u/']").first();
  await expect(photo).toBeVisible();
  // The pictures are what a phone's upload would be (lossy WebP), not lossless PNGs several times
  // their weight: the first photo is the home page's largest paint.
  const photoFile = await page.request.get(`${base}${await photo.getAttribute("src")}`);
  expect(photoFile.headers()["content-type"]).toBe("image/webp");
  expect((await photoFile.body()).length).toBeLessThan(20_000);
  // The first card is above the fold: its author's picture is asked for with the page, not after
  // the first layout as a lazy one would be; the cards below stay lazy.
  // Cards are the list's notes, whatever else the list may show above them.
  const loading = (cards: Locator) =>
    cards.locator(".note-head img.avatar").evaluateAll((els) => els.map((e) => e.getAttribute("loading")));
  const cards = page.locator(".note-list article.note");
  expect(await loading(cards.first())).toEqual(["eager"]);
  const later = (await Promise.all((await cards.all()).slice(1).map(loading))).flat();
  expect(later.length).toBeGreaterThan(5);
  expect(later).toEqual(later.map(() => "lazy"));

  await page.goto(`${base}/adalovelace`);
  const avatar = page.locator("main img[src^='/img/u/1/avatar/']").first();
  await expect(avatar).toBeVisible();
  await expect(avatar).toHaveAttribute("loading", "eager");
  const picture = await page.request.get(`${base}${await avatar.getAttribute("src")}`);
  expect(picture.headers()["content-type"]).toBe("image/webp");
  // Drawn at twice its largest CSS size (the profile's 88 px), a few KB: lists show it at 40 px.
  expect((await picture.body()).length).toBeLessThan(4_000);
  const side = await avatar.evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(side).toBe(176);
  // The cover, the profile's largest paint, is an image in the HTML (found before any style runs)
  // fetched first, not a CSS background.
  const cover = page.locator("main img.cover");
  await expect(cover).toHaveAttribute("fetchpriority", "high");
  await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(900);

  await page.goto(`${base}/adalovelace/note/1`);
  await expect(page.locator("li.depth-3").first()).toBeVisible();
  await expect(page.locator(".note-actions").first()).not.toContainText(/^\s*0\s*0\s*0\s*$/);
});
