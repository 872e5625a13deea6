// Safety that asks first and says what it did: Block confirms in a dialog naming what it does (its
// button red) and a notice says it is done; a muted profile says Muted; a blocked profile's filters
// count what its lists show. Reports take a free-text note and can also block.
import { E2E_MODERATOR, expect, personWithNote, signedIn, test, uniq } from "./fixtures";

/** The theme's danger colour, as the browser computes it. */
const dangerColour = (page: import("@playwright/test").Page) =>
  page.evaluate(() => {
    const probe = document.createElement("span");
    probe.style.color = "var(--danger)";
    document.body.appendChild(probe);
    return getComputedStyle(probe).color;
  });

test("Block asks first, naming what it does with a red Block, and says it is done", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const a = await personWithNote(browser, "Ada Blockable", `Note ${uniq("n")}`);
  await signedIn(page, "Bob Careful");
  const u = a.account.username;
  await page.goto(`/${u}`);
  await page.getByLabel("Profile menu").click();
  await page.getByRole("link", { name: `Block @${u}…` }).click();
  const ask = page.getByRole("dialog", { name: `Block @${u}?` });
  await expect(ask.getByText("They will not be able to follow you, see your notes or reply to you")).toBeVisible();
  const block = ask.getByRole("button", { name: "Block" });
  expect(await block.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(await dangerColour(page));
  // Cancel changes nothing.
  await ask.getByRole("link", { name: "Cancel" }).click();
  await expect(ask).toHaveCount(0);
  expect((await (await page.request.get(`/v1/users/${u}`)).json()).blocking).toBe(false);

  await page.getByLabel("Profile menu").click();
  await page.getByRole("link", { name: `Block @${u}…` }).click();
  await block.click();
  await expect(page).toHaveURL(`/${u}`);
  await expect(
    page.getByRole("status").filter({ hasText: "Blocked. You will not see each other's notes" }),
  ).toBeVisible();
  await expect(page.getByText(`You have blocked @${u}`)).toBeVisible();
  await a.ctx.close();
});

test("a muted profile shows Muted; a blocked profile's filters count what its lists show", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const a = await personWithNote(browser, "Ada Counted", `Note ${uniq("n")}`);
  expect((await a.page.request.post("/v1/folders", { data: { type: "Project", name: "Lathe" } })).status()).toBe(201);
  const me = await signedIn(page, "Bob Counter");
  const u = a.account.username;
  const uid = (await (await page.request.get(`/v1/users/${u}`)).json()).id;

  await page.request.post(`/v1/mutes/${uid}`);
  await page.goto(`/${u}`);
  await expect(page.locator(".profile-head").getByText("Muted", { exact: true })).toBeVisible();
  await expect(page.getByText(`You have muted @${u}`)).toBeVisible();
  // A deliberate visit still lists their folders, and the filter counts them.
  await expect(page.getByRole("option", { name: "Project (1)" })).toHaveCount(1);
  await page.goto(`/${u}?t=notes`);
  await expect(page.getByRole("navigation", { name: "Filter by x-label" }).getByText("idea (1)")).toBeVisible();

  // Blocked either way: nothing is listed, and the filters count nothing.
  await a.page.request.post(`/v1/blocks/${(await (await a.page.request.get(`/v1/users/${me.username}`)).json()).id}`);
  await page.goto(`/${u}`);
  await expect(page.getByText("has blocked you")).toBeVisible();
  await expect(page.getByRole("option", { name: /\(\d+\)/ })).toHaveCount(0);
  await page.goto(`/${u}?t=notes`);
  await expect(page.getByText("has blocked you")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Filter by x-label" })).toHaveCount(0);
  await a.ctx.close();
});

test("a report takes an optional note for the moderators and can also block the author", async ({
  page,
  browser,
  js,
}) => {
  test.setTimeout(90_000);
  const a = await personWithNote(browser, "Ada Reported", `Note ${uniq("n")}`);
  await signedIn(page, "Rae Reporter");
  const u = a.account.username;
  await page.goto(`/${u}?t=notes`);
  await page.getByLabel("Note menu", { exact: true }).first().click();
  await page.getByRole("link", { name: "Report", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Report", exact: true });
  await dialog.getByLabel("Spam").check();
  await dialog
    .getByLabel("Anything else the moderators should know? (optional)")
    .fill(`Posted ${js ? "js" : "nojs"} hourly`);
  await dialog.getByLabel(`Also block @${u}`).check();
  await dialog.getByRole("button", { name: "Report" }).click();
  await expect(dialog.getByRole("status")).toHaveText(
    `Thanks, we received your report. You have blocked @${u}: you will not see each other's notes any more.`,
  );
  expect((await (await page.request.get(`/v1/users/${u}`)).json()).blocking).toBe(true);
  await a.ctx.close();
});

test("the moderation queue shows what the reporter wrote", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const a = await personWithNote(browser, "Ada Queued", `Note ${uniq("n")}`);
  const r = await personWithNote(browser, "Rae Writer", `Note ${uniq("n")}`);
  const words = `It repeats ${uniq("w")} every hour`;
  await r.page.request.post("/v1/reports", { data: { nid: a.noteId, kind: 1, note: words } });
  const login = await page.request.post("/v1/login", { data: E2E_MODERATOR });
  expect(login.status()).toBe(200);
  await page.goto("/moderation");
  const card = page.getByRole("article", { name: `Reports about note ${a.noteId}` });
  await expect(card.getByText(words)).toBeVisible();
  await expect(card.getByText(`@${r.account.username} wrote`)).toBeVisible();
  await a.ctx.close();
  await r.ctx.close();
});
