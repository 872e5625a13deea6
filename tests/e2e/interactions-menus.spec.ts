// Issue 21: the moments people notice first, walked in Chromium with JavaScript on (menus, dialogs
// and forms; lists, drafts and places in interactions.spec.ts). Each test here failed before its fix.
import { expect, otherPerson, othersNotes, postNote as note, signedIn, test, uniq } from "./fixtures";

test.beforeEach(({ js }) => {
  test.skip(!js, "these are JavaScript interactions; the no-JS flows are covered elsewhere");
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
  await expect(page.getByText("liked your note “Like me”")).toBeVisible();
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
  const other = await othersNotes(playwright, "First of theirs", "Second of theirs");
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
  // Bookmark closes its menu and says so.
  await page.getByRole("button", { name: "Bookmark", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Bookmarked" })).toBeVisible();
  await expect(open).toHaveCount(0);
});

test("12b: Quote puts the caret in its text box", async ({ page, playwright }) => {
  await signedIn(page);
  const other = await othersNotes(playwright, "Quote me");
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
  const other = await othersNotes(playwright, "Report me");
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
