import { expect, signedIn, test, uniq } from "./fixtures";

test("search from the top bar: highlighted notes, then people and folders by tab", async ({ page }) => {
  const a = await signedIn(page, "Searcher Person");
  const word = uniq("s");
  const res = await page.request.post("/v1/notes", {
    data: { label: "idea", content: `<p>Crème brûlée ${word} &lt;script&gt;</p>` },
  });
  expect(res.status()).toBe(201);
  await page.request.post("/v1/folders", { data: { type: "Skill", name: `Baking ${word}`, descr: "", link: "" } });
  await page.goto("/");
  const field = page.getByRole("searchbox", { name: "Search NoteX" });
  await field.fill(`creme ${word}`);
  await field.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/search\\?q=creme\\+${word}`));
  // The Top view: the note under Notes, the folder under Folders.
  const hits = page.getByRole("region", { name: "Notes" });
  await expect(hits.locator("mark")).toHaveText(["Crème", word]);
  // The note's own text stays text: no element was made of it.
  await expect(hits.getByText("<script>")).toBeVisible();
  await hits.getByRole("link", { name: /Crème brûlée/ }).click();
  await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));

  await page.goto(`/search?q=${word}`);
  await page.getByRole("link", { name: "Folders" }).click();
  await expect(page).toHaveURL(/t=folders/);
  // The list as a whole (it retries until the Folders page has replaced Top's notes and folders).
  await expect(page.locator(".hits mark")).toHaveText([word]);
  await page.goto(`/search?q=${a.username.slice(0, 6)}&t=users`);
  await expect(page.locator(".hits").getByText("Searcher Person")).toBeVisible();
  await page.goto(`/search?q=%22${word}%22*%20(%20-&t=notes`);
  await expect(page.locator(".hits mark")).toHaveText([word]);
  await page.goto("/search?q=%22%20*");
  await expect(page.getByText("Nothing matches")).toBeVisible();
});

test("people search finds any word of a name: a surname finds the person", async ({ page }) => {
  const surname = `Lovelace${uniq("x")}`;
  const ada = await signedIn(page, `Ada ${surname}`);
  await page.goto(`/search?q=${surname.toLowerCase()}&t=users`);
  const hits = page.locator(".hits");
  await expect(hits.getByText(new RegExp(`^Ada ${surname}$`, "i"))).toBeVisible();
  await expect(page.getByText("Nothing matches")).toHaveCount(0);
  await hits.getByRole("link", { name: `@${ada.username}` }).click();
  await expect(page).toHaveURL(new RegExp(`/${ada.username}$`));
});

test("a surname opens on Top: the person first, then notes, tags and folders, with counts on the tabs", async ({
  page,
  js,
}) => {
  const surname = `Hopper${uniq("x")}`;
  const grace = await signedIn(page, `Grace ${surname}`);
  const lower = surname.toLowerCase();
  const note = await page.request.post("/v1/notes", {
    data: { label: "idea", content: `<p>${surname} wrote the first compiler #${lower}</p>` },
  });
  expect(note.status()).toBe(201);
  await page.request.post("/v1/folders", { data: { type: "Project", name: `${surname} papers`, descr: "", link: "" } });
  await page.goto("/");
  const field = page.getByRole("searchbox", { name: "Search NoteX" }).first();
  if (js) {
    // Suggestions as you type: the person is one tap away before the search is sent.
    await field.pressSequentially(lower.slice(0, 12), { delay: 20 });
    const suggestion = page.getByRole("option", { name: new RegExp(`Grace ${surname}`, "i") });
    await expect(suggestion).toBeVisible();
    await field.fill(lower);
  } else await field.fill(lower);
  await field.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${lower}`));
  const tabs = page.getByRole("navigation", { name: "What to search" });
  await expect(tabs.getByRole("link", { name: "Top" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "People 1" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Notes 1" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Folders 1" })).toBeVisible();
  await expect(page.locator(".search-top h2")).toHaveText(["People", "Notes", "Tags", "Folders"]);
  await expect(page.getByText("Nothing matches")).toHaveCount(0);
  await expect(page.locator(".search-top").getByRole("link", { name: `#${lower}`, exact: true })).toHaveAttribute(
    "href",
    `/tag/${lower}`,
  );
  await page
    .locator(".search-top")
    .getByRole("link", { name: `@${grace.username}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/${grace.username}$`));
});
