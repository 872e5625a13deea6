// The note composer as a newcomer meets it: it leads with the text, an x-label is chosen for you,
// and a link that asks to edit a note you cannot edit opens nothing that could post.
import { expect, fillNote, othersNotes, signedIn, test } from "./fixtures";

test("editing someone else's note, or one that is not there, opens no form that could post", async ({
  page,
  playwright,
}) => {
  await signedIn(page);
  const other = await othersNotes(playwright, "Their words, not yours");
  for (const edit of [String(other.ids[0]), "999999999", "abc"]) {
    await page.goto(`/settings?dialog=note&edit=${edit}`);
    const dialog = page.getByRole("dialog", { name: "Edit note" });
    await expect(dialog.getByText("This note is not yours to edit, or it is no longer there.")).toBeVisible();
    await expect(dialog.getByText("Their words, not yours")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Save" })).toHaveCount(0);
    await expect(page.getByRole("dialog", { name: "Take a note" })).toHaveCount(0);
  }
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/** The label of a note, as the API has it. */
async function labelOf(page: import("@playwright/test").Page) {
  const id = page.url().match(/\/note\/(\d+)$/)?.[1];
  return (await (await page.request.get(`/v1/notes/${id}`)).json()).label as string;
}

test("the composer leads with the text and picks the x-label for you: note, then the last one used", async ({
  page,
  js,
}) => {
  await signedIn(page);
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  // The note's text is the first field; the x-label is a chip after it, already chosen.
  const fields = form.locator("textarea, [contenteditable='true'], select, input:not([type=hidden]):not([type=file])");
  await expect(fields.first()).toHaveAttribute("id", "note-text");
  const chip = form.getByRole("combobox", { name: "X-label" });
  await expect(chip).toHaveValue("note");
  await fillNote(form, "My very first note");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/note\/\d+$/);
  expect(await labelOf(page)).toBe("note");
  if (!js) return;
  // With JavaScript the composer remembers the x-label used last.
  await page.goto("/?dialog=note");
  await form.getByRole("combobox", { name: "X-label" }).selectOption("idea");
  await fillNote(form, "An idea");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(/\/note\/\d+$/);
  expect(await labelOf(page)).toBe("idea");
  await page.goto("/?dialog=note");
  await expect(form.getByRole("combobox", { name: "X-label" })).toHaveValue("idea");
});

test("one compact toolbar: formatting, link, images with thumbnails and YouTube; the media rule up front", async ({
  page,
  js,
}) => {
  await signedIn(page);
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  await expect(form.getByText("Up to 10 images, or one video.")).toBeVisible();
  // The bare "YouTube link" heading over "Use the YouTube button above." is gone.
  await expect(form.getByText("Use the YouTube button above.")).toHaveCount(0);
  if (!js) {
    // Without JavaScript the plain fields do it: a file input and a link field.
    await expect(form.getByLabel("Images (up to 10)")).toBeVisible();
    await expect(form.getByLabel("YouTube link")).toBeVisible();
    return;
  }
  const tools = form.getByRole("toolbar", { name: "Formatting" });
  for (const name of ["Bold", "Italic", "Bulleted list", "Add Link", "Add images", "YouTube"])
    await expect(tools.getByRole("button", { name })).toBeVisible();
  // Every tool is an icon: the toolbar stays one compact row.
  const box = await tools.boundingBox();
  expect(box?.height ?? 0).toBeLessThan(56);
  const chooser = page.waitForEvent("filechooser");
  await tools.getByRole("button", { name: "Add images" }).click();
  await (await chooser).setFiles([{ name: "a.png", mimeType: "image/png", buffer: PNG }]);
  await expect(form.locator(".previews img")).toHaveCount(1);
  await expect(tools.getByRole("button", { name: "YouTube" })).toBeDisabled();
});

test("the post button stays in view, and on a phone the composer fills the screen", async ({ page, js }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedIn(page);
  await page.goto("/?dialog=note");
  const dialog = page.getByRole("dialog", { name: "Take a note" });
  const box = await dialog.boundingBox();
  expect(box?.width).toBe(390);
  expect(box?.height).toBe(844);
  const save = dialog.getByRole("button", { name: "Save" });
  await expect(save).toBeInViewport();
  if (!js) return;
  // A long note scrolls inside the dialog; Save stays on screen.
  await fillNote(dialog, Array.from({ length: 40 }, (_, i) => `Line ${i + 1}`).join("\n"));
  await dialog.locator(".editor-body").press("Control+End");
  await expect(save).toBeInViewport();
  await dialog.locator(".editor-body").press("Control+Home");
  await expect(save).toBeInViewport();
});

test("closing Edit Profile, a new x-folder or a reply's editor with typed text asks Discard? first", async ({
  page,
  js,
}) => {
  test.skip(!js, "without JavaScript a close is a plain link; the note composer keeps a draft instead");
  const a = await signedIn(page, "Careful Person");
  await page.goto(`/${a.username}?dialog=edit-profile`);
  const profile = page.getByRole("dialog", { name: "Edit Profile" });
  // Nothing typed: it closes at once.
  await page.keyboard.press("Escape");
  await expect(profile).toHaveCount(0);
  await page.goto(`/${a.username}?dialog=edit-profile`);
  await profile.getByLabel("Name").fill("A New Name");
  await page.keyboard.press("Escape");
  const ask = page.getByRole("alertdialog", { name: "Discard changes?" });
  await expect(ask.getByRole("button", { name: "Keep editing" })).toBeFocused();
  await ask.getByRole("button", { name: "Keep editing" }).click();
  await expect(ask).toHaveCount(0);
  await expect(profile.getByLabel("Name")).toHaveValue("A New Name");
  await profile.getByRole("link", { name: "Close", exact: true }).click();
  await ask.getByRole("link", { name: "Discard" }).click();
  await expect(profile).toHaveCount(0);

  await page.goto(`/${a.username}?dialog=folder&ftype=project`);
  const folder = page.getByRole("dialog", { name: "New Project" });
  await folder.getByLabel("Name").fill("Half a project");
  await page.mouse.click(5, 5);
  await expect(ask).toBeVisible();
  await ask.getByRole("link", { name: "Discard" }).click();
  await expect(folder).toHaveCount(0);

  const note = await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Reply here</p>" } });
  const id = (await note.json()).note.id;
  const reply = await page.request.post("/v1/replies", { data: { parent: -id, content: "<p>First words</p>" } });
  const rid = (await reply.json()).reply?.id ?? (await reply.json()).id;
  await page.goto(`/${a.username}/note/${id}?dialog=edit-reply&rid=${rid}`);
  const editor = page.getByRole("dialog", { name: "Edit reply" });
  await editor.getByLabel("Reply").fill("Second thoughts");
  await page.keyboard.press("Escape");
  await expect(ask).toBeVisible();
});

test("deleting a note asks in the spec's words with a red Yes, and a toast says it is done", async ({ page }) => {
  const a = await signedIn(page, "Tidy Person");
  const made = await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Soon gone</p>" } });
  const id = (await made.json()).note.id;
  await page.goto(`/${a.username}/note/${id}?dialog=delete-note&id=${id}`);
  const ask = page.getByRole("dialog", { name: "Delete note" });
  await expect(ask.getByText("Are you sure you want to delete?")).toBeVisible();
  await expect(ask.getByRole("link", { name: "No" })).toBeVisible();
  const yes = ask.getByRole("button", { name: "Yes" });
  // Red: the theme's danger colour, not the brand's.
  const red = await page.evaluate(() => {
    const probe = document.createElement("span");
    probe.style.color = "var(--danger)";
    document.body.appendChild(probe);
    return getComputedStyle(probe).color;
  });
  expect(await yes.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(red);
  await yes.click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("status").filter({ hasText: "Note deleted" })).toBeVisible();
});
