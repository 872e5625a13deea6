// Issue 21, the items that matter with JavaScript on and off (interactions.spec.ts holds the
// JavaScript-only ones). Each test here failed before its fix.
import type { Locator, Page, PlaywrightWorkerArgs } from "@playwright/test";
import { expect, fillNote, othersNotes, signedIn, test, uniq } from "./fixtures";

const tagOf = () => uniq("t").replace(/\d/g, "x");

/** Signed in, with someone else's note saying `words` under a tag of its own (its page lists only it). */
async function theirTaggedNote(page: Page, playwright: PlaywrightWorkerArgs["playwright"], words: string) {
  await signedIn(page);
  const tag = tagOf();
  const other = await othersNotes(playwright, `${words} #${tag}`);
  return { other, tag, id: other.ids[0] };
}

/** The renote counter of a card, as seen and heard: "Renote menu 3". */
const renotes = (card: Locator) => card.locator(".renote-menu > summary");

async function renoteMenu(card: Locator, entry: "Renote" | "Undo renote" | "Quote") {
  await renotes(card).click();
  if (entry === "Quote") await card.getByRole("link", { name: "Quote" }).click();
  else await card.getByRole("button", { name: entry, exact: true }).click();
}

/** Renote, undo, quote, then like and unlike and like: the card says what the server has, at once. */
async function walkCounts(page: Page, card: Locator) {
  await renoteMenu(card, "Renote");
  await expect(renotes(card)).toHaveText("Renote menu 1");
  await renoteMenu(card, "Undo renote");
  await expect(renotes(card)).toHaveText("Renote menu 0");
  await renoteMenu(card, "Quote");
  const dialog = page.getByRole("dialog", { name: "Quote" });
  await dialog.getByPlaceholder("Add a note").fill(`My take ${uniq("q")}`);
  await dialog.getByRole("button", { name: "Quote" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(renotes(card)).toHaveText("Renote menu 1");
  for (const [name, after] of [
    ["Like 0", "Unlike 1"],
    ["Unlike 1", "Like 0"],
    ["Like 0", "Unlike 1"],
  ]) {
    await card.getByRole("button", { name, exact: true }).click();
    await expect(card.getByRole("button", { name: after, exact: true })).toBeVisible();
  }
}

test("10: renote, undo, then quote: the card's counts are the server's at once", async ({ page, playwright }) => {
  const { tag, id } = await theirTaggedNote(page, playwright, "Count me");
  await page.goto(`/tag/${tag}`);
  const card = page.locator("article.note", { hasText: "Count me" });
  await walkCounts(page, card);
  // (The last like may still be on its way: the button answers at once.)
  const server = async () => {
    const n = await (await page.request.get(`/v1/notes/${id}`)).json();
    return [n.renum, n.likenum];
  };
  await expect.poll(server).toEqual([1, 1]);
  await page.reload();
  await expect(renotes(card)).toHaveText("Renote menu 1");
  await expect(card.getByRole("button", { name: "Unlike 1", exact: true })).toBeVisible();
});

test("10b: a note on a later page keeps right counts after each action and after Back", async ({ page, js }) => {
  test.skip(!js, "without JavaScript a later page is its own page, reloaded after each action");
  test.setTimeout(120_000);
  await signedIn(page);
  const tag = tagOf();
  // 21 notes: the oldest is the first of page 2, loaded by scrolling.
  for (let i = 0; i < 21; i++) {
    const res = await page.request.post("/v1/notes", {
      data: { label: "idea", content: `<p>${i ? `Filler ${i}` : "Count me"} #${tag}</p>` },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto(`/tag/${tag}`);
  const card = page.locator("article.note", { hasText: "Count me" });
  await expect(async () => {
    await page.mouse.wheel(0, 20000);
    await expect(card).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // Every like request is seen on its way (none held yet): walkCounts' last one must be back
  // before the held one below goes out.
  const delays: number[] = [];
  const likes = await holdRequests(page, "/actions/like", delays);
  await walkCounts(page, card);
  await expect.poll(() => likes.done === likes.sent && likes.intents.at(-1) === "like").toBe(true);
  // One more unlike, its answer held until its card has left the page: away and Back, the restored
  // page 2 shows the counts as they are now, not as it was loaded nor as the card last saw them.
  const before = likes.sent;
  delays[before] = 1500;
  await card.getByRole("button", { name: "Unlike 1", exact: true }).click();
  await expect(card.getByRole("button", { name: "Like 0", exact: true })).toBeVisible();
  await expect.poll(() => likes.sent).toBe(before + 1);
  await page.locator("article.note", { hasText: "Filler 20" }).locator("a.time").click();
  await expect(page.getByRole("heading", { name: "Note", exact: true })).toBeVisible();
  await expect.poll(() => likes.done, { timeout: 10_000 }).toBe(before + 1);
  await page.goBack();
  await expect(renotes(card)).toHaveText("Renote menu 1");
  await expect(card.getByRole("button", { name: "Like 0", exact: true })).toBeVisible();
});

/**
 * Holds each request to `path` before it reaches the server: the first `delays.length` ones that
 * long, the rest not at all. Sent from here, a request the page has given up on (a fetcher aborts
 * its previous submission) still reaches the server, late, as it can on a slow network. Returns
 * how many were sent, how many have reached the server and come back, and each one's intent.
 */
async function holdRequests(page: Page, path: string, delays: number[]) {
  const seen = { sent: 0, done: 0, intents: [] as string[] };
  await page.route(`**${path}*`, async (route) => {
    const delay = delays[seen.sent++] ?? 0;
    // The form's intent, posted url-encoded or as multipart.
    const body = route.request().postData() ?? "";
    seen.intents.push(/intent=(\w+)|name="intent"\r\n\r\n(\w+)/.exec(body)?.slice(1).find(Boolean) ?? "");
    await new Promise((r) => setTimeout(r, delay));
    const res = await route.fetch();
    seen.done++;
    await route.fulfill({ response: res }).catch(() => {}); // the page may have stopped waiting
  });
  return seen;
}

test("10c: like or renote clicked quickly: one request at a time, and the server ends where the card does", async ({
  page,
  js,
  playwright,
}) => {
  test.skip(!js, "without JavaScript each click is a page load, one at a time");
  const { tag, id } = await theirTaggedNote(page, playwright, "Race me");
  await page.goto(`/tag/${tag}`);
  const card = page.locator("article.note", { hasText: "Race me" });
  const server = async () => {
    const n = await (await page.request.get(`/v1/notes/${id}`)).json();
    return { liked: n.liked, likenum: n.likenum, renoted: n.renoted, renum: n.renum };
  };

  // The first like is slow and the unlike slower: before the fix the unlike, given up on by the
  // page, reached the server last and left it unliked while the card said "Unlike 1".
  const likes = await holdRequests(page, "/actions/like", [800, 1600]);
  for (const name of ["Like 0", "Unlike 1", "Like 0"]) await card.getByRole("button", { name, exact: true }).click();
  await expect(card.getByRole("button", { name: "Unlike 1", exact: true })).toBeVisible();
  // (The first request of a kind waits for its action's module: none may have gone out yet.)
  await expect.poll(() => likes.sent > 0 && likes.done === likes.sent, { timeout: 5000 }).toBe(true);
  await page.waitForTimeout(300);
  expect(await server()).toMatchObject({ liked: true, likenum: 1 });
  await expect(card.getByRole("button", { name: "Unlike 1", exact: true })).toBeVisible();

  // The same through the renote menu: Renote, Undo renote, Renote.
  const renoteCalls = await holdRequests(page, "/actions/renote", [800, 1600]);
  await renoteMenu(card, "Renote");
  await renoteMenu(card, "Undo renote");
  await renoteMenu(card, "Renote");
  await expect(renotes(card)).toHaveText("Renote menu 1");
  await expect.poll(() => renoteCalls.sent > 0 && renoteCalls.done === renoteCalls.sent, { timeout: 5000 }).toBe(true);
  await page.waitForTimeout(300);
  expect(await server()).toMatchObject({ renoted: true, renum: 1 });
  await expect(renotes(card)).toHaveText("Renote menu 1");

  // A wish that changes while a request is out goes once that one is back: Unlike (slow), Like.
  await page.unroute("**/actions/like*");
  const again = await holdRequests(page, "/actions/like", [800]);
  for (const name of ["Unlike 1", "Like 0"]) await card.getByRole("button", { name, exact: true }).click();
  await expect(card.getByRole("button", { name: "Unlike 1", exact: true })).toBeVisible();
  await expect.poll(() => again.sent === 2 && again.done === 2, { timeout: 5000 }).toBe(true);
  await page.waitForTimeout(300);
  expect(await server()).toMatchObject({ liked: true, likenum: 1 });
  await page.reload();
  await expect(card.getByRole("button", { name: "Unlike 1", exact: true })).toBeVisible();
  await expect(renotes(card)).toHaveText("Renote menu 1");
});

test("11: deleting a reply asks first and leaves you on the thread", async ({ page }) => {
  const me = await signedIn(page);
  const made = await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>A thread</p>" } });
  const noteId = (await made.json()).note.id;
  const reply = async (parent: number, text: string) => {
    const res = await page.request.post("/v1/replies", { data: { parent, content: `<p>${text}</p>` } });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return (await res.json()).id as number;
  };
  const first = await reply(-noteId, "First reply");
  await reply(-noteId, "Second reply");
  const nested = await reply(first, "Nested reply");
  const card = (text: string) => page.locator("article.reply", { hasText: text });

  // On the note page: No keeps the reply, Yes deletes it and stays on the note.
  const notePath = `/${me.username}/note/${noteId}`;
  await page.goto(notePath);
  await card("Second reply").getByRole("link", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete reply" });
  await expect(dialog.getByText("Are you sure you want to delete?")).toBeVisible();
  await dialog.getByRole("link", { name: "No", exact: true }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(card("Second reply")).toHaveCount(1);
  await card("Second reply").getByRole("link", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(card("Second reply")).toHaveCount(0);
  await expect(page).toHaveURL(notePath);
  await expect(card("First reply")).toHaveCount(1);

  // On a reply's own page: that reply is gone, so you land on the one it answered.
  await page.goto(`/${me.username}/rep/${nested}`);
  await card("Nested reply").getByRole("link", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL(`/${me.username}/rep/${first}`);
  await expect(card("First reply")).toHaveClass(/focus/);
  await expect(card("Nested reply")).toHaveCount(0);
});

test("17: a new note's image is never asked for before it is there, and shows on the note", async ({ page }) => {
  const me = await signedIn(page);
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
    "base64",
  );
  const missing: string[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/img/") && r.status() !== 200) missing.push(`${r.status()} ${r.url()}`);
  });
  // Opened over Discover, whose first page shows the new note as soon as it is saved.
  await page.goto("/?dialog=note");
  const form = page.locator("form.composer");
  await form.getByRole("combobox", { name: "X-label" }).selectOption("story");
  await fillNote(form, `Pictured ${uniq("p")}`);
  await form.getByLabel("Images (up to 10)").setInputFiles([{ name: "a.png", mimeType: "image/png", buffer: png }]);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(new RegExp(`/${me.username}/note/\\d+$`));
  const img = page.locator("article.note .images img");
  await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).toBe(1);
  await page.goto("/");
  await expect.poll(() => img.first().evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth)).toBe(1);
  expect(missing).toEqual([]);
});

test("16b: the sidebar marks the section you are in, on every page", async ({ page }) => {
  const me = await signedIn(page);
  const folder = await page.request.post("/v1/folders", {
    data: { type: "Skill", name: "Knitting", descr: "", link: "" },
  });
  const { slug } = await folder.json();
  const pages: [string, string | null][] = [
    ["/", "Home"],
    [`/${me.username}?t=notes`, "My Notes"],
    [`/${me.username}`, "My Experience"],
    [`/${me.username}/x/${slug}`, "My Experience"],
    ["/notifications", "Notifications"],
    ["/search", "Search"],
    ["/bookmarks", "Bookmarks"],
    ["/settings", "Settings"],
    ["/settings/blocked", "Settings"],
    ["/about", null],
  ];
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [path, entry] of pages) {
    await page.goto(path);
    const current = nav.locator("[aria-current=page]");
    if (entry === null) await expect(current, path).toHaveCount(0);
    else {
      await expect(current, path).toHaveCount(1);
      await expect(current, path).toHaveText(new RegExp(`^${entry}`));
      await expect(current, path).toHaveClass(/active/);
    }
  }
});

test("16c: a published reply says so once, and nothing about it rides in the address", async ({ page, context }) => {
  const me = await signedIn(page);
  const made = await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Reply here</p>" } });
  const noteId = (await made.json()).note.id;
  const reply = await page.request.post("/v1/replies", { data: { parent: -noteId, content: "<p>First</p>" } });
  const replyId = (await reply.json()).id;
  for (const path of [`/${me.username}/note/${noteId}`, `/${me.username}/rep/${replyId}`]) {
    await page.goto(path);
    await page.getByPlaceholder("Write your reply").fill(`Published ${uniq("r")}`);
    await page.getByRole("button", { name: "Reply", exact: true }).click();
    await expect(page.getByText("Your reply has been published"), path).toBeVisible();
    expect(new URL(page.url()).pathname + new URL(page.url()).search, path).toBe(path);
    // The notice was for that one page: a reload (or a shared link) does not say it again.
    expect((await context.cookies()).map((c) => c.name)).not.toContain("notex_flash");
    await page.reload();
    await expect(page.getByRole("article", { name: /Reply by/ }).first()).toBeVisible();
    await expect(page.getByText("Your reply has been published")).toHaveCount(0);
  }
});

test("issue 19: a signed-in card's ⋯ is one link in the HTML; its dialog's forms work and come back", async ({
  page,
  playwright,
  js,
}) => {
  const { other, tag, id } = await theirTaggedNote(page, playwright, "Menu me");
  // The server's HTML: the card's only forms are like and renote; its ⋯ is a link to the dialog.
  const html = await (await page.request.get(`/tag/${tag}`)).text();
  const card = html.slice(html.indexOf("<article"), html.indexOf("</article>"));
  expect(card.match(/<form/g)).toHaveLength(2);
  expect(card).toContain(`href="/tag/${tag}?dialog=note-menu&amp;id=${id}"`);

  // Without JavaScript the ⋯ opens the dialog; with it, the dropdown (the dialog still answers its URL).
  await page.goto(`/tag/${tag}`);
  await page.getByLabel("Note menu", { exact: true }).click();
  if (js) await expect(page.locator("details.menu[open]")).toHaveCount(1);
  else await expect(page).toHaveURL(`/tag/${tag}?dialog=note-menu&id=${id}`);
  await page.goto(`/tag/${tag}?dialog=note-menu&id=${id}`);
  const dialog = page.getByRole("dialog", { name: "Note actions" });
  for (const name of ["Bookmark", `Mute @${other.username}`])
    await expect(dialog.getByRole("button", { name, exact: true })).toBeVisible();
  // Block asks first: its entry is a link to the confirmation.
  await expect(dialog.getByRole("link", { name: `Block @${other.username}…`, exact: true })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Report" })).toBeVisible();
  await dialog.getByRole("button", { name: "Bookmark", exact: true }).click();
  // Without JavaScript the post comes back to the page, the dialog closed; with it, a toast says so.
  if (js) await expect(page.getByText("Bookmarked")).toBeVisible();
  else await expect(page).toHaveURL(`/tag/${tag}`);
  await expect
    .poll(async () => (await (await page.request.get(`/v1/bookmarks/${id}?t=note`)).json()).bookmarked)
    .toBe(true);
  // Opened again, the dialog knows the state from the page's own load.
  await page.goto(`/tag/${tag}?dialog=note-menu&id=${id}`);
  await expect(dialog.getByRole("button", { name: "Remove bookmark", exact: true })).toBeVisible();
});
