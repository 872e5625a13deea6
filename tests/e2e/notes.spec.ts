import { expect, signedIn, test, uniq } from "./fixtures";

test("write a note, see it on Discover, open, edit and delete it", async ({ page, js }) => {
  const a = await signedIn(page, "Note Writer");
  const word = uniq("w");
  await page.goto("/");
  await page
    .getByRole("link", { name: /Take a note/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Take a note" });
  await expect(dialog).toBeVisible();
  // Refused without a label, with the spec's message, and the text kept.
  await dialog.getByLabel("Note", { exact: true }).fill(`Hello ${word} #edge`);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Please select a x-label.")).toBeVisible();
  const form = page.locator("form.composer");
  await expect(form.getByLabel("Note", { exact: true })).toHaveValue(`Hello ${word} #edge`);
  await form.getByRole("combobox", { name: "X-label" }).selectOption("idea");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));
  await expect(page.getByRole("heading", { name: "Note", exact: true })).toBeVisible();
  await expect(page.getByText(`Hello ${word}`)).toBeVisible();
  await expect(page.getByRole("link", { name: "#edge" })).toHaveAttribute("href", "/tag/edge");
  await expect(page.getByRole("link", { name: "idea" })).toHaveAttribute("href", `/${a.username}?t=notes&l=idea`);
  const noteUrl = page.url();

  await page.goto("/");
  await expect(page.getByText(`Hello ${word}`)).toBeVisible();

  await page.goto(noteUrl);
  await page.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit note" });
  await edit.getByLabel("Note", { exact: true }).fill(`Edited ${word}`);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Edited ${word}`)).toBeVisible();
  await expect(page.getByText(`Hello ${word}`)).toHaveCount(0);

  await page.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("link", { name: "Delete" }).click();
  await expect(page.getByText("Are you sure you want to delete?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL("/");
  const res = await page.goto(noteUrl);
  expect(res?.status()).toBe(404);
  if (js) expect(js).toBe(true);
});

test("like, renote and quote someone's note", async ({ page, browser }) => {
  // The author writes through the API; the reader acts through the page.
  const authorCtx = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const author = await authorCtx.newPage();
  const a = await signedIn(author, "Original Author");
  const text = `Original ${uniq("o")}`;
  const created = await author.request.post("/v1/notes", { data: { label: "tip", content: `<p>${text}</p>` } });
  const { note } = await created.json();
  await authorCtx.close();

  await signedIn(page, "Reader");
  await page.goto(`/${a.username}/note/${note.id}`);
  await page.getByRole("button", { name: "Like (0)" }).click();
  await expect(page.getByRole("button", { name: "Unlike (1)" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Unlike (1)" })).toBeVisible();

  await page.getByLabel("Renote menu (0)").click();
  await page.getByRole("button", { name: "Renote", exact: true }).click();
  await expect(page.getByLabel("Renote menu (1)")).toBeVisible();

  await page.getByLabel(/Renote menu/).click();
  await page.getByRole("link", { name: "Quote" }).click();
  const dlg = page.getByRole("dialog", { name: "Quote" });
  await expect(dlg.getByPlaceholder("Add a note")).toBeVisible();
  await dlg.getByRole("button", { name: "Quote" }).click();
  await expect(page.getByText("please enter your note.")).toBeVisible();
  await page.getByPlaceholder("Add a note").fill("So true");
  await page.getByRole("dialog", { name: "Quote" }).getByRole("button", { name: "Quote" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Renote menu (2)")).toBeVisible();
});

test("visitors read Discover and note pages; Following says No notes yet; bad ids are 404", async ({ page }) => {
  await page.goto("/?tab=following");
  await expect(page.getByText("No notes yet")).toBeVisible();
  for (const path of ["/someone/note/0", "/someone/note/abc", "/someone/note/99999999"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByText("Oops! The page you're looking for is not here.")).toBeVisible();
  }
});

test("post a note with two images", async ({ page }) => {
  const a = await signedIn(page, "Illustrator");
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
    "base64",
  );
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  await form.getByRole("combobox", { name: "X-label" }).selectOption("story");
  await form.getByLabel("Note", { exact: true }).fill("Two pictures");
  await form.getByLabel("Images (up to 10)").setInputFiles([
    { name: "a.png", mimeType: "image/png", buffer: png },
    { name: "b.png", mimeType: "image/png", buffer: png },
  ]);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));
  const imgs = page.locator("article.note .images img");
  await expect(imgs).toHaveCount(2);
  for (const src of await imgs.evaluateAll((els) => els.map((e) => e.getAttribute("src")))) {
    const res = await page.request.get(src ?? "");
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toContain("immutable");
  }
});
