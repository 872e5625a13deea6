// A reply box keeps what was typed as a draft, as the note composer does: leaving the page or
// closing the box loses nothing; publishing clears it.
import { expect, postNote, signedIn, test } from "./fixtures";

test("a reply box with typed text keeps it as a draft until it is published", async ({ page, js }) => {
  test.skip(!js, "without JavaScript the box is a plain form: nothing is typed until it is posted");
  const a = await signedIn(page, "Draft Replier");
  const id = await postNote(page, "Reply to me");
  await page.goto(`/${a.username}/note/${id}`);
  const box = page.getByPlaceholder("Write your reply");
  await box.fill("Half a thought");
  await page.goto("/");
  await page.goto(`/${a.username}/note/${id}`);
  await expect(box).toHaveValue("Half a thought");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your reply has been published" })).toBeVisible();
  await page.goto(`/${a.username}/note/${id}`);
  await expect(box).toHaveValue("");
});
