import { rgbPng } from "./png";
import { expect, fillNote, fromShell, signedIn, test, uniq } from "./fixtures";

test("write a note, see it on Discover, open, edit and delete it", async ({ page }) => {
  const a = await signedIn(page, "Note Writer");
  const word = uniq("w");
  await page.goto("/");
  await page
    .getByRole("link", { name: /Take a note/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: "Take a note" });
  await expect(dialog).toBeVisible();
  // The x-label is chosen for you ("note"); here it is changed to another.
  await fillNote(dialog, `Hello ${word} #edge`);
  const form = page.locator("form.composer");
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
  await fillNote(edit, `Edited ${word}`);
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Edited ${word}`)).toBeVisible();
  await expect(page.getByText(`Hello ${word}`)).toHaveCount(0);

  await page.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("link", { name: "Delete" }).click();
  await expect(page.getByText("Are you sure you want to delete?")).toBeVisible();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL("/");
  // A note that existed says it was deleted (410), where an id that never was is the spec's 404.
  const gone = await page.goto(noteUrl);
  if (!fromShell(gone)) expect(gone?.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "This note was deleted" })).toBeVisible();
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
  // The like is optimistic with JS: wait for the server's answer before reloading, or the reload
  // would cancel it.
  const liked = page.waitForResponse((r) => r.url().includes("/actions/like") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Like 0" }).click();
  await expect(page.getByRole("button", { name: "Unlike 1" })).toBeVisible();
  await liked;
  await page.reload();
  await expect(page.getByRole("button", { name: "Unlike 1" })).toBeVisible();

  await page.locator(".renote-menu > summary", { hasText: "Renote menu 0" }).click();
  await page.getByRole("button", { name: "Renote", exact: true }).click();
  await expect(page.locator(".renote-menu > summary", { hasText: "Renote menu 1" })).toBeVisible();

  await page.locator(".renote-menu > summary").click();
  await page.getByRole("link", { name: "Quote" }).click();
  const dlg = page.getByRole("dialog", { name: "Quote" });
  await expect(dlg.getByPlaceholder("Add a note")).toBeVisible();
  await dlg.getByRole("button", { name: "Quote" }).click();
  await expect(page.getByText("please enter your note.")).toBeVisible();
  await page.getByPlaceholder("Add a note").fill("So true");
  await page.getByRole("dialog", { name: "Quote" }).getByRole("button", { name: "Quote" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.reload();
  await expect(page.locator(".renote-menu > summary", { hasText: "Renote menu 2" })).toBeVisible();
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

test("post a note with two images", async ({ page, js }) => {
  const a = await signedIn(page, "Illustrator");
  const tag = uniq("pics");
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
    "base64",
  );
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  // A dialog opened by its URL hydrates with its own (lazy) chunk, after the page: wait for the
  // enhanced composer, or React would reset what was typed into the server-rendered one.
  if (js) await expect(form.locator("[data-editor]")).toBeVisible();
  await form.getByRole("combobox", { name: "X-label" }).selectOption("story");
  await fillNote(form, `Two pictures #${tag}`);
  await form.getByLabel("Images (up to 10)").setInputFiles([
    { name: "a.png", mimeType: "image/png", buffer: png },
    { name: "b.png", mimeType: "image/png", buffer: png },
  ]);
  // Alt text per image (issue 22): a field per picked image with JavaScript, one line each without.
  if (js) {
    await form.getByLabel("Image 1 description (alt text)").fill("A red square");
    await form.getByLabel("Image 2 description (alt text)").fill("A blue square");
  } else {
    await form.getByLabel(/Describe the new images/).fill("A red square\nA blue square");
  }
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));
  const imgs = page.locator("article.note .images img");
  await expect(imgs).toHaveCount(2);
  // On the note's own page each picture is whole (its own proportions, never cropped to a strip).
  await expect
    .poll(() => imgs.evaluateAll((els) => (els as HTMLImageElement[]).every((e) => e.complete && e.naturalWidth > 0)))
    .toBe(true);
  for (const shape of await imgs.evaluateAll((els) =>
    (els as HTMLImageElement[]).map((e) => ({
      fit: getComputedStyle(e).objectFit,
      shown: e.getBoundingClientRect().width / e.getBoundingClientRect().height,
      natural: e.naturalWidth / e.naturalHeight,
    })),
  )) {
    expect(shape.fit).not.toBe("cover");
    expect(shape.shown).toBeCloseTo(shape.natural, 1);
  }
  expect(await imgs.evaluateAll((els) => els.map((e) => e.getAttribute("alt")))).toEqual([
    "A red square",
    "A blue square",
  ]);
  if (js) {
    // The lightbox reads the description out under the picture.
    await page.locator("article.note .images a").nth(1).click();
    const box = page.getByRole("dialog", { name: "Image 2 of 2" });
    await expect(box.getByText("A blue square")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(box).toHaveCount(0);
  }
  for (const src of await imgs.evaluateAll((els) => els.map((e) => e.getAttribute("src")))) {
    const res = await page.request.get(src ?? "");
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toContain("immutable");
  }
  // The largest paint of a page is usually the first note's picture: a list's first note and a
  // note's own page load their pictures at once, the first with high priority; the rest are lazy.
  const loading = (list: typeof imgs) =>
    list.evaluateAll((els) => els.map((e) => [e.getAttribute("loading"), e.getAttribute("fetchpriority")]));
  expect(await loading(imgs)).toEqual([
    ["eager", "high"],
    ["eager", null],
  ]);
  await page.goto(`/tag/${tag}`);
  await expect(page.locator("article.note")).toHaveCount(1);
  expect(await loading(page.locator("article.note").first().locator(".images img"))).toEqual([
    ["eager", "high"],
    ["eager", null],
  ]);
  await page.goto("/");
  const cards = page.locator(".note-list > article.note, .note-list > .renoted");
  await expect(cards.first()).toBeVisible();
  const first = await loading(cards.first().locator(".images img"));
  expect(first).toEqual(first.map((_, i) => ["eager", i === 0 ? "high" : null]));
  const later = await loading(page.locator(".note-list > :not(:first-child) .images img"));
  expect(later).toEqual(later.map(() => ["lazy", null]));
});

/** A solid-colour RGB PNG of any size, so scaling can be checked on real pixels. */
function pngOf(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3, 0x7a);
  row[0] = 0;
  return rgbPng(width, height, () => row);
}

/** Width and height from a PNG's IHDR or a JPEG's start-of-frame marker. */
function imageSize(buf: Buffer): [number, number] {
  if (buf.readUInt32BE(0) === 0x89504e47) return [buf.readUInt32BE(16), buf.readUInt32BE(20)];
  let i = 2;
  while (i < buf.length) {
    const marker = buf.readUInt16BE(i);
    if (marker >= 0xffc0 && marker <= 0xffc3) return [buf.readUInt16BE(i + 7), buf.readUInt16BE(i + 5)];
    i += 2 + buf.readUInt16BE(i + 2);
  }
  throw new Error("not a PNG or JPEG");
}

test("rich editor: bold, Add Link and YouTube dialogs; big images scaled to 1000 px JPEG before the PUT", async ({
  page,
  js,
}) => {
  test.skip(!js, "the rich editor needs JavaScript; the textarea path is covered above");
  const a = await signedIn(page, "Rich Writer");
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  const editor = form.getByRole("textbox", { name: "Note" });
  await expect(editor).toBeVisible();
  await expect(form.locator(".editor-body")).toHaveAttribute("contenteditable", "true");
  await form.getByRole("combobox", { name: "X-label" }).selectOption("tip");
  await editor.click();
  await page.keyboard.type("Start #rich ");
  await expect(form.locator(".editor-body .hashtag")).toHaveText("#rich");
  await form.getByRole("button", { name: "Bold" }).click();
  await expect(form.getByRole("button", { name: "Bold" })).toHaveAttribute("aria-pressed", "true");
  await page.keyboard.type("strong");
  await form.getByRole("button", { name: "Bold" }).click();
  await page.keyboard.type(" ");

  await form.getByRole("button", { name: "Add Link" }).click();
  const link = form.getByRole("dialog", { name: "Add Link" });
  await link.getByRole("button", { name: "Add" }).click();
  await expect(link.getByText("Please enter your link.")).toBeVisible();
  await link.getByLabel("Link").fill("example.com/page");
  await link.getByRole("button", { name: "Add" }).click();
  await expect(link).toHaveCount(0);
  await expect(form.locator(".editor-body a")).toHaveAttribute("href", "http://example.com/page");
  await expect(form.locator(".editor-body a")).toHaveText("example.com/page");

  await form.getByRole("button", { name: "YouTube" }).click();
  const yt = form.getByRole("dialog", { name: "YouTube link" });
  await yt.getByLabel("YouTube link").fill("https://example.com/watch?v=nope");
  await yt.getByRole("button", { name: "Add" }).click();
  await expect(yt.getByText("Invalid YouTube link.")).toBeVisible();
  await yt.getByLabel("YouTube link").fill("https://youtu.be/dQw4w9WgXcQ");
  await yt.getByRole("button", { name: "Add" }).click();
  await expect(form.getByText("https://youtu.be/dQw4w9WgXcQ")).toBeVisible();
  // Spec 5: an image is disabled while a video is set, and the other way round.
  await expect(form.getByLabel("Images (up to 10)")).toBeDisabled();
  await form.getByRole("button", { name: "Remove video" }).click();
  await expect(form.getByLabel("Images (up to 10)")).toBeEnabled();

  await form.getByLabel("Images (up to 10)").setInputFiles([
    { name: "wide.png", mimeType: "image/png", buffer: pngOf(2400, 1200) },
    { name: "small.png", mimeType: "image/png", buffer: pngOf(300, 200) },
  ]);
  await expect(form.locator(".previews img")).toHaveCount(2);
  await expect(form.getByRole("button", { name: "YouTube" })).toBeDisabled();
  const puts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "PUT") puts.push(`${r.headers()["content-type"]} ${r.url()}`);
  });
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));
  // The browser itself PUT both images to their signed links.
  expect(puts).toHaveLength(2);
  expect(puts[0]).toMatch(/^image\/jpeg .*\/v1\/uploads\/u\/\d+\/note\/[0-9a-f]{24}\.jpg\?/);
  expect(puts[1]).toMatch(/^image\/png /);
  await expect(page.locator("article.note .content strong")).toHaveText("strong");
  await expect(page.locator("article.note a[href='http://example.com/page']")).toHaveAttribute(
    "rel",
    "nofollow noopener ugc",
  );
  const sizes = [];
  for (const src of await page
    .locator("article.note .images img")
    .evaluateAll((els) => els.map((e) => (e as HTMLImageElement).src))) {
    const res = await page.request.get(src);
    expect(res.status()).toBe(200);
    sizes.push(imageSize(await res.body()));
  }
  expect(sizes).toEqual([
    [1000, 500],
    [300, 200],
  ]);
});
