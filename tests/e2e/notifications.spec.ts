import { expect, otherPerson, postNote, signedIn, test } from "./fixtures";

// A newcomer's notifications: what was liked, a Mentions tab, follow back, and which ones are new.

test("notifications name the note, filter to mentions, follow back and show which are unread", async ({
  page,
  playwright,
}) => {
  const me = await signedIn(page, "Noti Reader");
  const note = await postNote(page, "The Analytical Engine weaves intricate patterns just as the loom weaves flowers");
  const other = await otherPerson(playwright);
  const { id: otherId } = await (await other.req.get("/v1/me")).json();
  const meJson = await (await page.request.get("/v1/me")).json();
  await other.req.post(`/v1/follows/${meJson.id}`);
  await other.req.post(`/v1/likes/${note}?t=note`);
  await other.req.post("/v1/notes", { data: { label: "idea", content: `<p>Hello @${me.username}</p>` } });
  await other.req.dispose();

  await page.goto("/notifications");
  // Only this test's other person's notices: the suite shares one database, and a reader with a
  // follower can be suggested to a newcomer elsewhere in the run, who may follow them meanwhile.
  const rows = page.locator(".notis li").filter({ hasText: "Other Person" });
  const unread = page.locator(".notis li.unread").filter({ hasText: "Other Person" });
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(
    "Other Person liked your note “The Analytical Engine weaves intricate patterns just as the…”",
  );
  // New ones look new, and say so to a screen reader.
  await expect(unread).toHaveCount(3);
  await expect(rows.first().getByRole("link")).toHaveAccessibleName(/^Unread: Other Person mentioned you/);

  await page.getByRole("link", { name: "Mentions" }).click();
  await expect(page).toHaveURL(/\/notifications\?t=mentions$/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("mentioned you");
  await page.getByRole("link", { name: "All", exact: true }).click();
  await expect(rows).toHaveCount(3);

  // Follow back from the follow notice (a form: the same without JavaScript, back on this page).
  const follow = rows.filter({ hasText: "followed you" });
  await follow.getByRole("button", { name: "Follow back" }).click();
  await expect(follow.getByText("Following", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/notifications$/);
  const followers = await (await page.request.get(`/v1/follows/${otherId}/followers?page=1`)).json();
  expect(followers.users.map((u: { username: string }) => u.username)).toContain(me.username);
  // Read now: on the next visit none is unread.
  await page.goto("/notifications");
  await expect(rows).toHaveCount(3);
  await expect(unread).toHaveCount(0);
});
