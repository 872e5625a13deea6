import { expect, otherPerson, postNote, signedIn, test, uniq } from "./fixtures";

// A note page reads as a conversation: replies to replies indented under their parent, deeper
// levels behind links that work without JavaScript, and a new reply lands under its parent.

test("a note page shows the conversation as a tree, and a reply to a reply appears under its parent", async ({
  page,
  playwright,
  js,
}) => {
  const me = await signedIn(page, "Thread Owner");
  const noteId = await postNote(page, "A note with a conversation");
  const other = await otherPerson(playwright);
  const say = async (req: typeof page.request, parent: number, text: string) => {
    const res = await req.post("/v1/replies", { data: { parent, content: `<p>${text}</p>` } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).id as number;
  };
  const r1 = await say(other.req, -noteId, "Level one");
  const r11 = await say(page.request, r1, "Level two");
  const r111 = await say(other.req, r11, "Level three");
  await say(page.request, r111, "Level four");
  await say(other.req, -noteId, "Another level one");

  const path = `/${me.username}/note/${noteId}`;
  await page.goto(path);
  const branch = (id: number) => page.locator(`li.branch:has(> #rep-${id})`);
  await expect(branch(r1)).toHaveClass(/depth-1/);
  // Each level sits inside its parent's branch.
  await expect(branch(r1).locator(`li.depth-2:has(> #rep-${r11})`)).toHaveCount(1);
  await expect(branch(r11).locator(`li.depth-3:has(> #rep-${r111})`)).toBeVisible();
  await expect(page.getByText("Level four")).toHaveCount(0);
  const tops = page.locator(".convo-root > li > article");
  await expect(tops).toHaveCount(2);

  // A new reply to a reply, from the box under it.
  const text = `Answer ${uniq("t")}`;
  if (js) await page.evaluate(() => Object.assign(window, { samePage: true }));
  await page
    .locator(`#rep-${r1}`)
    .getByRole("link", { name: /Reply; replies/ })
    .click();
  const box = page.getByRole("textbox", { name: "Reply to Other Person" });
  await box.fill(text);
  await branch(r1).getByRole("button", { name: "Reply", exact: true }).click();
  const mine = branch(r1).locator("li.depth-2", { hasText: text });
  await expect(mine).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${path}\\?reply=\\d+#rep-\\d+$`));
  // With JavaScript, without reloading the page; without, the redirect lands on it.
  if (js) expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
  await expect(page.getByRole("textbox", { name: "Reply to Other Person" })).toHaveCount(0);

  // Deeper levels: "Continue this thread" opens the reply's page, where the rest is.
  await branch(r111).getByRole("link", { name: "Continue this thread" }).click();
  await expect(page).toHaveURL(new RegExp(`/rep/${r111}#replies$`));
  await expect(page.getByText("Level four")).toBeVisible();
});

test("on a phone the thread is shallower: the third level folds into Continue this thread", async ({
  page,
  playwright,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const me = await signedIn(page, "Phone Reader");
  const noteId = await postNote(page, "A phone thread");
  const other = await otherPerson(playwright);
  const say = async (parent: number, text: string) =>
    (await (await other.req.post("/v1/replies", { data: { parent, content: `<p>${text}</p>` } })).json()).id as number;
  const r1 = await say(-noteId, "Phone one");
  const r11 = await say(r1, "Phone two");
  await say(r11, "Phone three");
  await page.goto(`/${me.username}/note/${noteId}`);
  await expect(page.getByText("Phone two")).toBeVisible();
  await expect(page.getByText("Phone three")).toBeHidden();
  await page.getByRole("link", { name: "Continue this thread" }).click();
  await expect(page).toHaveURL(new RegExp(`/rep/${r11}#replies$`));
  await expect(page.getByText("Phone three")).toBeVisible();
});
