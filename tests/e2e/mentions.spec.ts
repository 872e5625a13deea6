import type { Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { expect, signedIn, test, uniq } from "./fixtures";

// Issue 18 item 2: the composer suggests people as an @name is typed, in the rich editor and in
// the textarea the form shows without it, used with the keyboard only (a listbox the field points
// into with aria-activedescendant; arrows, Enter or Tab, Escape), and the picked name links on save;
// the reply and quote boxes offer the same list with the same keys.

/** Three people whose usernames share a fresh stem, the viewer following the last of them. */
async function people(page: Page, playwright: { request: { newContext: Function } }) {
  const stem = uniq("m");
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-test-client": uniq("c") } });
  const make = async (username: string, name: string) => {
    const res = await api.post("/v1/signup", {
      data: { username, name, email: `${username}@example.com`, password: "secret123" },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).user as { id: number; username: string };
  };
  const ada = await make(`${stem}ada`, "Ada Mentioned");
  const adb = await make(`${stem}adb`, "Adb Mentioned");
  const adz = await make(`${stem}adz`, "Adz Followed");
  await api.dispose();
  expect((await page.request.post(`/v1/follows/${adz.id}`)).status()).toBe(200);
  return { stem, ada, adb, adz };
}

/** The field points into the list at the option that is active, and that option says it is selected. */
async function expectActive(page: Page, field: ReturnType<Page["locator"]>, name: RegExp) {
  const list = page.getByRole("listbox", { name: "People to mention" });
  const option = list.getByRole("option", { selected: true });
  await expect(option).toHaveCount(1);
  await expect(option).toHaveAccessibleName(name);
  await expect(field).toHaveAttribute("aria-activedescendant", (await option.getAttribute("id")) as string);
  await expect(field).toHaveAttribute("aria-controls", (await list.getAttribute("id")) as string);
}

test("rich editor: @ suggests people (followed first), arrows move, Escape closes, Enter and Tab pick; the note links them", async ({
  page,
  js,
  playwright,
}) => {
  test.skip(!js, "suggestions need JavaScript; without it the @name still links on save (mentions API tests)");
  await signedIn(page, "Mention Writer");
  const { stem, ada, adb, adz } = await people(page, playwright);
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  await expect(form.locator(".editor-body")).toHaveAttribute("contenteditable", "true");
  const editor = form.getByRole("textbox", { name: "Note" });
  await expect(editor).toHaveAttribute("aria-autocomplete", "list");
  await editor.click();
  await page.keyboard.type(`Hi @${stem}ad`);

  const list = page.getByRole("listbox", { name: "People to mention" });
  await expect(list.getByRole("option")).toHaveCount(3);
  // The person followed comes first, then the others by username; the count is announced.
  await expect(list.getByRole("option")).toHaveText([/Adz Followed.*Following/, /Ada Mentioned/, /Adb Mentioned/]);
  await expect(form.getByRole("status").filter({ hasText: "found" })).toHaveText(/^3 people found\./);
  await expectActive(page, editor, /Adz Followed/);
  await page.keyboard.press("ArrowDown");
  await expectActive(page, editor, /Ada Mentioned/);
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  await expectActive(page, editor, /Adb Mentioned/);

  // Escape closes the list, not the composer; another letter asks again.
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(editor).not.toHaveAttribute("aria-activedescendant");
  await expect(page.getByRole("dialog", { name: "Take a note" })).toBeVisible();
  await page.keyboard.type("a");
  await expect(list.getByRole("option")).toHaveText([/Ada Mentioned/]);
  await expect(form.getByRole("status").filter({ hasText: "found" })).toHaveText(/^1 person found\./);
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(editor).toHaveText(`Hi @${ada.username} `);

  await page.keyboard.type(`and @${stem.toUpperCase()}ADB`);
  await expect(list.getByRole("option")).toHaveText([/Adb Mentioned/]);
  await page.keyboard.press("Tab");
  await expect(editor).toHaveText(`Hi @${ada.username} and @${adb.username} `);
  // Still one paragraph: Enter picked instead of splitting it, and Tab kept focus in the field.
  await expect(form.locator(".editor-body p")).toHaveCount(1);
  await expect(editor).toBeFocused();
  // A name no one has is announced as such and opens nothing.
  await page.keyboard.type("@zzzz9q");
  await expect(form.getByRole("status").filter({ hasText: "No one" })).toHaveText("No one found for @zzzz9q.");
  await expect(list).toHaveCount(0);

  await form.getByRole("combobox", { name: "X-label" }).selectOption("idea");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/note\/\d+$/);
  const body = page.locator("article").first();
  await expect(body.getByRole("link", { name: `@${ada.username}` })).toHaveAttribute("href", `/${ada.username}`);
  await expect(body.getByRole("link", { name: `@${adb.username}` })).toHaveAttribute("href", `/${adb.username}`);
  expect(adz.username).toContain(stem);
});

test("textarea (no rich editor): @ suggests people with the same keys, and the pick lands at the caret", async ({
  page,
  js,
  playwright,
}) => {
  test.skip(!js, "suggestions need JavaScript");
  await signedIn(page, "Plain Writer");
  const { stem, ada, adz } = await people(page, playwright);
  // The editor's module never arrives (a slow or failed chunk): the textarea stays and still suggests.
  await page.route(/RichEditor\.client-[^/]*\.js$/, (route) => route.abort());
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  const field = form.getByRole("textbox", { name: "Note" });
  await expect(field).toHaveJSProperty("tagName", "TEXTAREA");
  await field.click();
  await page.keyboard.type(`tail`);
  await page.keyboard.press("Home");
  await page.keyboard.type(`cc @${stem}ad `);
  await page.keyboard.press("ArrowLeft");
  const list = page.getByRole("listbox", { name: "People to mention" });
  await expect(list.getByRole("option")).toHaveCount(3);
  await expectActive(page, field, /Adz Followed/);
  await page.keyboard.press("ArrowDown");
  await expectActive(page, field, /Ada Mentioned/);
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(page.getByRole("dialog", { name: "Take a note" })).toBeVisible();
  await page.keyboard.press("Backspace");
  await page.keyboard.type("da");
  await expect(list.getByRole("option")).toHaveText([/Ada Mentioned/]);
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  // The space after the caret was already there: none is added.
  await expect(field).toHaveValue(`cc @${ada.username} tail`);
  await expect(field).toHaveJSProperty("selectionStart", `cc @${ada.username}`.length);
  // A click picks too, and leaves focus in the field.
  await page.keyboard.press("End");
  await page.keyboard.type(` @${stem}adz`);
  await list.getByRole("option", { name: /Adz Followed/ }).click();
  await expect(field).toHaveValue(`cc @${ada.username} tail @${adz.username} `);
  await expect(field).toBeFocused();
});

/** A note by someone else, for the viewer to reply to or quote. */
async function theirNote(playwright: { request: { newContext: Function } }, text: string) {
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-test-client": uniq("c") } });
  const username = uniq("o");
  const up = await api.post("/v1/signup", {
    data: { username, name: "Note Owner", email: `${username}@example.com`, password: "secret123" },
  });
  expect(up.status(), await up.text()).toBe(201);
  const made = await api.post("/v1/notes", { data: { label: "idea", content: `<p>${text}</p>` } });
  expect(made.status(), await made.text()).toBe(201);
  const id = (await made.json()).note.id as number;
  await api.dispose();
  return { id, username, href: `/${username}/note/${id}` };
}

test("reply box: @ suggests people with the composer's keys, and the reply links them", async ({
  page,
  js,
  playwright,
}) => {
  test.skip(!js, "suggestions need JavaScript; without it the @name still links on save");
  await signedIn(page, "Reply Writer");
  const { stem, ada, adb } = await people(page, playwright);
  const note = await theirNote(playwright, "Who should read this?");
  await page.goto(note.href);
  const box = page.getByRole("textbox", { name: "Write your reply" });
  await expect(box).toHaveAttribute("aria-autocomplete", "list");
  await box.click();
  await page.keyboard.type(`Ask @${stem}ad`);

  const list = page.getByRole("listbox", { name: "People to mention" });
  await expect(list.getByRole("option")).toHaveText([/Adz Followed.*Following/, /Ada Mentioned/, /Adb Mentioned/]);
  const form = page.locator("form.reply-form");
  await expect(form.getByRole("status").filter({ hasText: "found" })).toHaveText(/^3 people found\./);
  await expectActive(page, box, /Adz Followed/);
  await page.keyboard.press("ArrowDown");
  await expectActive(page, box, /Ada Mentioned/);
  // Enter picks instead of starting a new line.
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue(`Ask @${ada.username} `);

  await page.keyboard.type(`and @${stem}ad`);
  await expect(list.getByRole("option")).toHaveCount(3);
  // Escape closes the list (the box keeps what was typed); another letter asks again.
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(box).not.toHaveAttribute("aria-activedescendant");
  await page.keyboard.type("b");
  await expect(list.getByRole("option")).toHaveText([/Adb Mentioned/]);
  // Tab picks and keeps focus in the box.
  await page.keyboard.press("Tab");
  await expect(box).toHaveValue(`Ask @${ada.username} and @${adb.username} `);
  await expect(box).toBeFocused();

  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByText("Your reply has been published")).toBeVisible();
  await expect(box).toHaveValue("");
  const reply = page.locator("article.reply", { hasText: "Ask" });
  await expect(reply.getByRole("link", { name: `@${ada.username}` })).toHaveAttribute("href", `/${ada.username}`);
  await expect(reply.getByRole("link", { name: `@${adb.username}` })).toHaveAttribute("href", `/${adb.username}`);
});

test("quote box: @ suggests people, Escape closes the list and not the dialog, and the quote links them", async ({
  page,
  js,
  playwright,
}) => {
  test.skip(!js, "suggestions need JavaScript; without it the @name still links on save");
  const me = await signedIn(page, "Quote Writer");
  const { stem, ada } = await people(page, playwright);
  const note = await theirNote(playwright, "Quote me on this");
  await page.goto(note.href);
  await page.locator("article.note .renote-menu > summary").first().click();
  await page.getByRole("link", { name: "Quote", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Quote" });
  const box = dialog.getByRole("textbox", { name: "Quote" });
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute("aria-autocomplete", "list");
  await page.keyboard.type(`Worth a read, @${stem}ad`);

  const list = page.getByRole("listbox", { name: "People to mention" });
  await expect(list.getByRole("option")).toHaveText([/Adz Followed.*Following/, /Ada Mentioned/, /Adb Mentioned/]);
  await expectActive(page, box, /Adz Followed/);
  await page.keyboard.press("ArrowUp");
  await expectActive(page, box, /Adb Mentioned/);
  // Escape is the list's while it is open: the dialog stays, with what was typed.
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(dialog).toBeVisible();
  await page.keyboard.type("a");
  await expect(list.getByRole("option")).toHaveText([/Ada Mentioned/]);
  await expect(dialog.getByRole("status").filter({ hasText: "found" })).toHaveText(/^1 person found\./);
  await page.keyboard.press("Enter");
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue(`Worth a read, @${ada.username} `);
  await expect(dialog).toBeVisible();

  await dialog.getByRole("button", { name: "Quote" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.goto(`/${me.username}?t=notes`);
  const quote = page.locator("article.note", { hasText: "Worth a read" });
  await expect(quote.getByRole("link", { name: `@${ada.username}` })).toHaveAttribute("href", `/${ada.username}`);
});
