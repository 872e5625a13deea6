import { expect, othersNotes, personWithNote, signedIn, test, uniq } from "./fixtures";

/** A promise and the call that settles it: one request held until another has come back. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

/**
 * A like's answer lands with no page reload (it carries its own state). When it lands while a
 * reply's reload is still on its way, the router takes the like's as the newer data and drops the
 * reply's reload: the toast said the reply was published and the thread never showed it (seen as
 * a one-in-many failure of social.spec.ts on a loaded machine). Here the order is forced: the
 * like's answer is held until the reply's has come back, and the reply's reload until the like's
 * answer has come back.
 */
test("a reply sent while a like is on its way shows in the thread", async ({ page, browser, js }) => {
  test.skip(!js, "without JavaScript each form is a page load of its own, one at a time");
  const a = await personWithNote(browser, "Ada Author", `Thoughts ${uniq("t")}`);
  await signedIn(page, "Bob Reader");
  const notePath = `/${a.account.username}/note/${a.noteId}`;

  const replyAnswered = gate();
  const likeAnswered = gate();
  await page.route(/\/actions\/like\b/, async (route) => {
    await replyAnswered.opened;
    const res = await route.fetch();
    await route.fulfill({ response: res });
    likeAnswered.open();
  });
  await page.route(/\/actions\/reply\b/, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res });
    replyAnswered.open();
  });
  // Only the first reload of the page after the reply is held; a later one goes straight through.
  let held = false;
  await page.route(
    (url) => url.pathname === `${notePath}.data`,
    async (route) => {
      if (!held && route.request().method() === "GET") {
        held = true;
        await likeAnswered.opened;
        await new Promise((r) => setTimeout(r, 300)); // the like's answer is taken in first
      }
      await route.continue();
    },
  );

  await page.goto(notePath);
  await expect(page.locator('input[name="_js"]').first()).toBeAttached();
  await page.getByRole("button", { name: "Like 0" }).click();
  await expect(page.getByRole("button", { name: "Unlike 1" })).toBeVisible();
  await page.getByPlaceholder("Write your reply").fill("Sent while the like was on its way");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByText("Your reply has been published")).toBeVisible();
  await expect(page.getByRole("article", { name: "Reply by Bob Reader" })).toBeVisible();
  expect(held).toBe(true);
  await page.reload();
  await expect(page.getByRole("button", { name: "Unlike 1" })).toBeVisible();
  await a.ctx.close();
});

test("a reply with nothing else on its way reloads the page once", async ({ page, browser, js }) => {
  test.skip(!js, "without JavaScript the form's post is the page load");
  const a = await personWithNote(browser, "Ada Author", `Thoughts ${uniq("t")}`);
  await signedIn(page, "Bob Reader");
  const notePath = `/${a.account.username}/note/${a.noteId}`;
  await page.goto(notePath);
  await expect(page.locator('input[name="_js"]').first()).toBeAttached();
  const reloads: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "GET" && new URL(r.url()).pathname === `${notePath}.data`) reloads.push(r.url());
  });
  await page.getByPlaceholder("Write your reply").fill("Nothing else on its way");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByRole("article", { name: "Reply by Bob Reader" })).toBeVisible();
  // A second reload would leave within a frame of the reply showing.
  await page.waitForTimeout(500);
  expect(reloads).toHaveLength(1);
  await a.ctx.close();
});

/**
 * A quote's "posted" toast comes with the page's reload after it (the root's flash). The dialog
 * closed while that reload was on its way, which reads the page again: the router dropped the
 * first reload, flash and all, or the second, finding the flash taken, put the toast away at once
 * (a one-in-many failure of words.spec.ts). Here the close's read leaves after the first's answer.
 */
test("a quote says it was posted even when closing its dialog reads the page again", async ({
  page,
  playwright,
  js,
}) => {
  test.skip(!js, "without JavaScript the quote's post is a page load that shows the flash");
  await signedIn(page);
  const other = await othersNotes(playwright, "Quote me");
  const notePath = `/${other.username}/note/${other.ids[0]}`;
  await page.goto(`${notePath}?dialog=quote&id=${other.ids[0]}`);
  await expect(page.locator('input[name="_js"]').first()).toBeAttached();
  let quoted = false;
  const firstAnswered = gate();
  let reads = 0;
  await page.route(/\/actions\/renote\b/, async (route) => {
    const res = await route.fetch();
    quoted = true;
    await route.fulfill({ response: res });
  });
  await page.route(
    (url) => url.pathname === `${notePath}.data`,
    async (route) => {
      if (!quoted || route.request().method() !== "GET") return route.continue();
      const n = ++reads;
      if (n === 1) {
        await route.fulfill({ response: await route.fetch() });
        firstAnswered.open();
        return;
      }
      // The second read leaves once the first's answer has taken the flash (its cookie cleared).
      await firstAnswered.opened;
      const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      await route.fulfill({ response: await route.fetch({ headers: { ...route.request().headers(), cookie } }) });
    },
  );
  const dialog = page.getByRole("dialog", { name: "Quote" });
  await dialog.getByRole("textbox").fill(`Well said ${uniq("w")}`);
  await dialog.getByRole("button", { name: "Quote" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your quote has been posted" })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});
