// Issue 21: the moments people notice first, walked in Chromium with JavaScript on. Each test here
// failed before its fix.
import type { Page } from "@playwright/test";
import { expect, signedIn, test } from "./fixtures";

test.beforeEach(({ js }) => {
  test.skip(!js, "these are JavaScript interactions; the no-JS flows are covered elsewhere");
});

async function note(page: Page, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>${content}</p>`, ...extra } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).note.id;
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
    await expect(form.locator("[data-editor] .editor-body")).toBeVisible();
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
  await expect(page.locator("form.composer .editor-body")).toBeVisible();
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
  await page.keyboard.type(" More");
  await expect(editor).toHaveText(`${body} More`);
});

test("4: a composer's draft survives Escape and a click outside", async ({ page }) => {
  await signedIn(page);
  await page.goto("/");
  const prompt = page.getByRole("link", { name: /Take a note\.\.\./ });
  await prompt.click();
  const editor = page.locator("form.composer .editor-body");
  await expect(editor).toBeVisible();
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

test("issue 15 bug 3: the Following feed shows a failed call as an error, not as an empty feed", async ({ page }) => {
  await signedIn(page);
  await page.goto("/?tab=following&page=2&cursor=not-a-cursor");
  await expect(page.getByRole("alert")).toHaveText("Something went wrong, please try again.");
  await expect(page.getByText("No notes yet")).toHaveCount(0);
});
