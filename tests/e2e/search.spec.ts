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
  const hits = page.locator(".hits");
  await expect(hits.locator("mark")).toHaveText(["Crème", word]);
  // The note's own text stays text: no element was made of it.
  await expect(hits.getByText("<script>")).toBeVisible();
  await hits.getByRole("link", { name: /Crème brûlée/ }).click();
  await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));

  await page.goto(`/search?q=${word}`);
  await page.getByRole("link", { name: "Folders" }).click();
  await expect(page.locator(".hits mark")).toHaveText(word);
  await page.goto(`/search?q=${a.username.slice(0, 6)}&t=users`);
  await expect(page.locator(".hits").getByText("Searcher Person")).toBeVisible();
  await page.goto(`/search?q=%22${word}%22*%20(%20-`);
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
