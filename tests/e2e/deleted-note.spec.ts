// A note that existed and was deleted says so at its address, inside the app's shell, with status
// 410; an address that never held a note is the spec's 404.
import { expect, expectNotFound, fromShell, postNote, signedIn, test } from "./fixtures";

test("a deleted note's page says This note was deleted (410), not a bare 404", async ({ page, browser }) => {
  const a = await signedIn(page, "Gone Writer");
  const id = await postNote(page, "Here for a moment");
  expect((await page.request.delete(`/v1/notes/${id}`)).status()).toBe(200);
  const res = await page.goto(`/${a.username}/note/${id}`);
  if (!fromShell(res)) expect(res?.status()).toBe(410);
  await expect(page.getByRole("heading", { name: "This note was deleted" })).toBeVisible();
  await expect(page.getByText("Its author deleted it, along with its replies.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home Page" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Gone Writer/ })).toBeVisible();

  // A visitor sees the same; an id that never was a note is not found.
  const visitor = await browser.newPage({ baseURL: test.info().project.use.baseURL });
  const seen = await visitor.goto(`/${a.username}/note/${id}`);
  expect(seen?.status()).toBe(410);
  await expect(visitor.getByRole("heading", { name: "This note was deleted" })).toBeVisible();
  await expectNotFound(visitor, await visitor.goto(`/${a.username}/note/${id + 100000}`));
  await visitor.close();
});
