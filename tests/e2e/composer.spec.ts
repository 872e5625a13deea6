// The note composer as a newcomer meets it: it leads with the text, an x-label is chosen for you,
// and a link that asks to edit a note you cannot edit opens nothing that could post.
import { expect, othersNotes, signedIn, test } from "./fixtures";

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
