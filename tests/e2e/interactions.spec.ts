// Issue 21: the moments people notice first, walked in Chromium with JavaScript on. Each test here
// failed before its fix. Lists use a tag of their own so tests running beside them cannot move them.
import type { Locator, Page } from "@playwright/test";
import { expect, otherPerson, signedIn, test, uniq } from "./fixtures";

test.beforeEach(({ js }) => {
  test.skip(!js, "these are JavaScript interactions; the no-JS flows are covered elsewhere");
});

async function note(page: Page, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>${content}</p>`, ...extra } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).note.id;
}

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

test("7: the notification badge resets while the notifications list is shown", async ({ page, playwright }) => {
  await signedIn(page);
  const id = await note(page, "Like me");
  const other = await otherPerson(playwright);
  expect((await other.req.post(`/v1/likes/${id}?t=note`)).status()).toBe(200);
  await other.req.dispose();
  await page.goto("/");
  const badge = page.getByRole("navigation", { name: "Main" }).locator(".badge");
  await expect(badge).toContainText("1");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: /Notifications/ })
    .click();
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  await expect(page.getByText("liked your post")).toBeVisible();
  await expect(badge).toHaveCount(0);
  await expect(page.locator(".badge")).toHaveCount(0);
});

test("8: Copy link and Copy text say Copied", async ({ page }) => {
  await signedIn(page);
  await note(page, "Copy me");
  const me = await (await page.request.get("/v1/me")).json();
  await page.goto(`/${me.username}?t=notes`);
  for (const entry of ["Copy link", "Copy text"]) {
    await page.getByLabel("Note menu", { exact: true }).first().click();
    await page.getByRole("button", { name: entry }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
    await expect(page.locator("details.menu[open]")).toHaveCount(0);
  }
});

test("9: a custom folder type and Next stay on the profile, in the details step with Name focused", async ({
  page,
}) => {
  const me = await signedIn(page);
  await page.goto(`/${me.username}`);
  await page.getByRole("link", { name: "New", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "New x-folder" });
  await dialog.getByPlaceholder("or enter a type").fill("Hobby");
  await dialog.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("dialog", { name: "New Hobby" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`/${me.username}`);
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  // A preset type too: Name, not Type, has the caret.
  await page.getByRole("link", { name: "Back" }).click();
  await page.getByRole("link", { name: "Skill", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "New Skill" })).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
});

test("12a: menus close on a click outside, on Escape, when another opens, and after Save", async ({
  page,
  playwright,
}) => {
  await signedIn(page);
  const other = await otherPerson(playwright);
  for (const text of ["First of theirs", "Second of theirs"])
    await other.req.post("/v1/notes", { data: { label: "idea", content: `<p>${text}</p>` } });
  await other.req.dispose();
  await page.goto(`/${other.username}?t=notes`);
  const open = page.locator("details.menu[open]");
  const menus = page.getByLabel("Note menu", { exact: true });
  await menus.nth(0).click();
  await expect(open).toHaveCount(1);
  await page.getByRole("heading", { level: 1 }).first().click();
  await expect(open).toHaveCount(0);
  await menus.nth(0).click();
  await page.keyboard.press("Escape");
  await expect(open).toHaveCount(0);
  await expect(menus.nth(0)).toBeFocused();
  // One at a time, across kinds: the note menu then the renote menu of another card.
  await menus.nth(0).click();
  await page.locator(".renote-menu > summary").nth(1).click();
  await expect(open).toHaveCount(1);
  await menus.nth(1).click();
  await expect(open).toHaveCount(1);
  // Save closes its menu and says so.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Bookmarked" })).toBeVisible();
  await expect(open).toHaveCount(0);
});

test("12b: Quote puts the caret in its text box", async ({ page, playwright }) => {
  await signedIn(page);
  const other = await otherPerson(playwright);
  await other.req.post("/v1/notes", { data: { label: "idea", content: "<p>Quote me</p>" } });
  await other.req.dispose();
  await page.goto(`/${other.username}?t=notes`);
  await page.locator(".renote-menu > summary").first().click();
  await page.getByRole("link", { name: "Quote" }).click();
  await expect(page.getByPlaceholder("Add a note")).toBeFocused();
});

test("12c: sign-up Back then Next keeps the username", async ({ page }) => {
  await page.goto("/?dialog=signup");
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(`${uniq("s")}@example.com`);
  await dialog.getByLabel("Name").fill("Sam Signup");
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByLabel("Username").fill("samsignup");
  await dialog.getByRole("button", { name: "Back" }).click();
  await expect(dialog.getByText("Step 1 of 2")).toBeVisible();
  await dialog.getByRole("button", { name: "Next" }).click();
  await expect(dialog.getByLabel("Username")).toHaveValue("samsignup");
});

test("13: Settings shows an error once", async ({ page, playwright }) => {
  await signedIn(page);
  const other = await otherPerson(playwright);
  await other.req.dispose();
  await page.goto("/settings?edit=username");
  await page.locator("input[name=username]").fill(other.username);
  await page.getByRole("button", { name: "Save", exact: true }).first().click();
  await expect(page.getByText("username is taken")).toHaveCount(1);
  await page.goto("/settings?edit=password");
  await page.getByLabel("Current password").fill("wrong1234");
  await page.getByLabel("New password").fill("newpass123");
  await page.getByLabel("Confirm password").fill("newpass123");
  await page.getByRole("button", { name: "Save", exact: true }).first().click();
  await expect(page.getByText("current password is not correct.")).toHaveCount(1);
});

test("14: Report starts with no kind chosen, and asks for one", async ({ page, playwright }) => {
  await signedIn(page);
  const other = await otherPerson(playwright);
  await other.req.post("/v1/notes", { data: { label: "idea", content: "<p>Report me</p>" } });
  await other.req.dispose();
  await page.goto(`/${other.username}?t=notes`);
  await page.getByLabel("Note menu", { exact: true }).first().click();
  await page.getByRole("link", { name: "Report" }).click();
  const dialog = page.getByRole("dialog", { name: "Report" });
  await expect(dialog.getByRole("radio")).toHaveCount(5);
  await expect(dialog.getByRole("radio", { checked: true })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Report" }).click();
  await expect(page.getByText("Thanks, we received your report.")).toHaveCount(0);
  await dialog.getByLabel("Other").check();
  await dialog.getByRole("button", { name: "Report" }).click();
  await expect(page.getByText("Thanks, we received your report.")).toBeVisible();
});

test("16a: one note is '1 note', one follower '1 follower'", async ({ page }) => {
  const me = await signedIn(page);
  await note(page, "Only one");
  await page.goto(`/${me.username}`);
  await expect(page.getByRole("link", { name: "1 note", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "0 followers", exact: true })).toBeVisible();
});

test("15: folder filter and sort apply on choice; the owner's folder menu copies its link", async ({ page }) => {
  const me = await signedIn(page);
  for (const [type, name] of [
    ["Skill", "Knitting"],
    ["Project", "Garden shed"],
  ]) {
    const res = await page.request.post("/v1/folders", { data: { type, name, descr: "", link: "" } });
    expect(res.status(), await res.text()).toBeLessThan(300);
  }
  await page.goto(`/${me.username}`);
  await expect(page.getByRole("button", { name: "Apply" })).toHaveCount(0);
  await page.getByLabel("Filter").selectOption("Skill");
  await expect(page).toHaveURL(/type=Skill/);
  await expect(page.getByText("Garden shed")).toHaveCount(0);
  await page.getByLabel("Sort by").selectOption("time");
  await expect(page).toHaveURL(/sort=time/);
  await page.getByText("Knitting").click();
  await page.getByLabel("Folder menu").click();
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
});
