// Issue 21: the moments people notice first, walked in Chromium with JavaScript on. Each test here
// failed before its fix. Lists use a tag of their own so tests running beside them cannot move them.
import type { Locator, Page } from "@playwright/test";
import { expect, postNote as note, signedIn, test, uniq } from "./fixtures";

test.beforeEach(({ js }) => {
  test.skip(!js, "these are JavaScript interactions; the no-JS flows are covered elsewhere");
});

/** `n` notes under a tag of their own, oldest first; returns the tag. */
async function taggedNotes(page: Page, n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  // Three pages of notes take a while to write and to scroll through on a busy machine.
  test.setTimeout(120_000);
  const tag = uniq("t").replace(/\d/g, "x");
  for (let i = 0; i < n; i++) await note(page, `Entry ${i} #${tag}`, extra(i));
  return tag;
}

/** Scrolls until `count` cards are on the page (the end sentinel loads the next pages). */
async function loadAll(page: Page, count: number) {
  const cards = page.locator("article.note");
  await expect(async () => {
    await page.mouse.wheel(0, 20000);
    expect(await cards.count()).toBeGreaterThanOrEqual(count);
  }).toPass({ timeout: 20_000 });
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Where the page stands once `link` is in view: Playwright scrolls a link into view to click it. */
async function inView(page: Page, link: Locator) {
  await link.scrollIntoViewIfNeeded();
  return scrollY(page);
}

test("1: a new or edited note's composer puts the caret in the note body", async ({ page }) => {
  await signedIn(page);
  const id = await note(page, "To be edited");
  for (const open of ["prompt", "right", "url", "edit"] as const) {
    if (open === "url") await page.goto("/?dialog=note");
    else if (open === "edit") await page.goto(`/?dialog=note&edit=${id}`);
    else {
      await page.goto("/");
      if (open === "prompt") await page.getByRole("link", { name: /Take a note\.\.\./ }).click();
      else await page.getByRole("complementary").getByRole("link", { name: "Take a note" }).click();
    }
    const form = page.locator("form.composer");
    // Typing waits for the editor's own autofocus (tiptap focuses it a tick after it appears).
    await expect(form.locator("[data-editor] .editor-body")).toBeFocused();
    await page.keyboard.type(" Typed Here");
    await expect(form.locator(".editor-body")).toContainText("Typed Here");
    await expect(form.getByLabel("or a custom x-label")).toHaveValue("");
  }
});

test("1b: the mobile bottom bar's add button focuses the note body", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedIn(page);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Add note" }).click();
  await expect(page.locator("form.composer .editor-body")).toBeFocused();
  await page.keyboard.type("From my phone");
  await expect(page.locator("form.composer .editor-body")).toHaveText("From my phone");
});

test("2: text typed into the composer before scripts arrive is carried into the editor", async ({ page }) => {
  await signedIn(page);
  // Hold the scripts back, as a slow phone would, while the person types into the server's form.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const loading = page.goto("/?dialog=note");
  const body = "Eighty characters typed while the page was still loading its scripts, all kept!!";
  await page.locator("textarea#note-text").fill(body);
  await page.locator("#note-custom-label").fill("draft");
  release();
  await loading;
  const editor = page.locator("form.composer .editor-body");
  await expect(editor).toHaveText(body);
  await expect(page.locator("#note-custom-label")).toHaveValue("draft");
  await expect(editor).toBeFocused();
  await page.keyboard.type(" More");
  await expect(editor).toHaveText(`${body} More`);
});

test("3: a published reply leaves its box, and a double click publishes it once", async ({ page }) => {
  await signedIn(page);
  const id = await note(page, "Reply to me");
  const me = await (await page.request.get("/v1/me")).json();
  await page.goto(`/${me.username}/note/${id}`);
  const box = page.getByPlaceholder("Write your reply");
  const text = `Only once ${uniq("r")}`;
  await box.fill(text);
  await page.getByRole("button", { name: "Reply", exact: true }).dblclick();
  await expect(page.getByText("Your reply has been published")).toBeVisible();
  await expect(box).toHaveValue("");
  await expect(page.locator("article.reply", { hasText: text })).toHaveCount(1);
  await page.reload();
  await expect(page.locator("article.reply", { hasText: text })).toHaveCount(1);
  expect(new URL(page.url()).search).not.toContain("published");
});

test("4: a composer's draft survives Escape and a click outside", async ({ page }) => {
  await signedIn(page);
  await page.goto("/");
  const prompt = page.getByRole("link", { name: /Take a note\.\.\./ });
  await prompt.click();
  const editor = page.locator("form.composer .editor-body");
  await expect(editor).toBeFocused();
  await page.keyboard.type("Half a thought");
  await page.locator("#note-custom-label").fill("musing");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await prompt.click();
  await expect(editor).toHaveText("Half a thought");
  await expect(page.locator("#note-custom-label")).toHaveValue("musing");
  await page.mouse.click(5, 400);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await prompt.click();
  await expect(editor).toHaveText("Half a thought");
  // Saved, the draft is gone.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/note\/\d+$/);
  await page.goto("/?dialog=note");
  await expect(page.locator("form.composer .editor-body")).toHaveText("");
});

test("5: Back and Forward return to the same place in a list, its loaded pages included", async ({ page }) => {
  await signedIn(page);
  const tag = await taggedNotes(page, 45);
  await page.goto(`/tag/${tag}`);
  await loadAll(page, 45);
  const target = page.locator("article.note", { hasText: "Entry 3 #" });
  await target.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, -200);
  await page.waitForTimeout(300);
  const before = await scrollY(page);
  expect(before).toBeGreaterThan(3000);
  await target.locator("a.time").click();
  await expect(page.getByRole("heading", { name: "Note", exact: true })).toBeVisible();
  await page.goBack();
  await expect(page.locator("article.note")).toHaveCount(45);
  await expect.poll(() => scrollY(page)).toBeGreaterThan(before - 40);
  expect(Math.abs((await scrollY(page)) - before)).toBeLessThan(40);
  await page.goForward();
  await expect(page.getByRole("heading", { name: "Note", exact: true })).toBeVisible();
  await page.goBack();
  await expect(page.locator("article.note")).toHaveCount(45);
  await expect.poll(async () => Math.abs((await scrollY(page)) - before)).toBeLessThan(40);
});

test("6: liking, quoting, reporting or deleting far down a list keeps the page where it is", async ({ page }) => {
  await signedIn(page);
  // An own note with a video far down; others' notes around it to report.
  const tag = await taggedNotes(page, 43, (i) => (i === 2 ? { video: "https://youtu.be/dQw4w9WgXcQ" } : {}));
  await page.goto(`/tag/${tag}`);
  await loadAll(page, 43);
  const card = page.locator("article.note", { hasText: "Entry 2 #" });
  await card.scrollIntoViewIfNeeded();
  // The video loads on a click (nothing from YouTube before); from then on it stays loaded.
  await card.getByRole("button", { name: "Play YouTube video" }).click();
  await page.evaluate(() => {
    const f = document.querySelector("article.note iframe[title='YouTube video']") as HTMLIFrameElement & {
      mark?: number;
    };
    f.mark = 1;
  });
  expect(await scrollY(page)).toBeGreaterThan(3000);
  const top = async () => Math.round((await card.boundingBox())?.y ?? -1);
  const at = await top();

  const liked = page.waitForResponse((r) => r.url().includes("/actions/like"));
  await card.getByRole("button", { name: "Like 0" }).click();
  await liked;
  await expect(card.getByRole("button", { name: "Unlike 1" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(Math.abs((await top()) - at)).toBeLessThan(4);
  expect(
    await page.evaluate(() => (document.querySelector("iframe[title='YouTube video']") as { mark?: number })?.mark),
  ).toBe(1);

  // Quote, from the renote menu: the page stays, and closing leaves a clean URL.
  await card.locator(".renote-menu > summary").click();
  let y = await inView(page, card.getByRole("link", { name: "Quote" }));
  await card.getByRole("link", { name: "Quote" }).click();
  await expect(page.getByRole("dialog", { name: "Quote" })).toBeVisible({ timeout: 30_000 });
  expect(Math.abs((await scrollY(page)) - y)).toBeLessThan(4);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(Math.abs((await scrollY(page)) - y)).toBeLessThan(4);
  expect(new URL(page.url()).search).toBe("");

  // Delete (own note): open and close with No.
  await card.getByLabel("Note menu", { exact: true }).click();
  y = await inView(page, card.getByRole("link", { name: "Delete" }));
  await card.getByRole("link", { name: "Delete" }).click();
  await expect(page.getByText("Are you sure you want to delete?")).toBeVisible({ timeout: 30_000 });
  expect(Math.abs((await scrollY(page)) - y)).toBeLessThan(4);
  await page.getByRole("link", { name: "No", exact: true }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(Math.abs((await scrollY(page)) - y)).toBeLessThan(4);
  expect(new URL(page.url()).search).toBe("");
});

test("6b: Report far down someone's list keeps the page, twice over, and closes to a clean URL", async ({
  page,
  browser,
}) => {
  const other = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const author = await other.newPage();
  await signedIn(author);
  const tag = await taggedNotes(author, 42);
  await other.close();
  await signedIn(page);
  await page.goto(`/tag/${tag}`);
  await loadAll(page, 42);
  for (const n of [2, 4]) {
    const card = page.locator("article.note", { hasText: `Entry ${n} #` });
    await card.scrollIntoViewIfNeeded();
    await card.getByLabel("Note menu", { exact: true }).click();
    const y = await inView(page, card.getByRole("link", { name: "Report" }));
    await card.getByRole("link", { name: "Report" }).click();
    await expect(page.getByRole("dialog", { name: "Report" })).toBeVisible({ timeout: 30_000 });
    expect(Math.abs((await scrollY(page)) - y)).toBeLessThan(4);
    expect(new URL(page.url()).searchParams.getAll("id")).toHaveLength(1);
    await page.getByRole("link", { name: "Close", exact: true }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(Math.abs((await scrollY(page)) - y)).toBeLessThan(4);
    expect(new URL(page.url()).search).toBe("");
  }
});

test("issue 15 bug 3: the Following feed shows a failed call as an error, not as an empty feed", async ({ page }) => {
  await signedIn(page);
  await page.goto("/?tab=following&page=2&cursor=not-a-cursor");
  await expect(page.getByRole("alert")).toHaveText("Something went wrong, please try again.");
  await expect(page.getByText("No notes yet")).toHaveCount(0);
});
