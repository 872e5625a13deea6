// The fediverse handle is visible: the profile shows @name@host (copyable), a visitor's Follow
// offers "follow from your Mastodon server" (their server's follow page for this person), and the
// search page says a full handle finds people elsewhere.
import { expect, otherPerson, test } from "./fixtures";

test("a visitor sees the whole handle and follows from their own server", async ({ page, playwright, js }) => {
  const ada = await otherPerson(playwright);
  await ada.req.dispose();
  const host = new URL(test.info().project.use.baseURL as string).host;
  const handle = `@${ada.username}@${host}`;
  await page.goto(`/${ada.username}`);
  await expect(page.locator(".profile-head .fedi-handle")).toHaveText(handle);
  await page.locator(".profile-head").getByRole("link", { name: "Follow", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Follow Other Person" });
  await expect(dialog.getByRole("link", { name: "Log in" })).toBeVisible();
  await expect(dialog.getByText(handle)).toBeVisible();
  const there = `https://mastodon.example/authorize_interaction?uri=${encodeURIComponent(handle)}`;
  // A word that is no server is refused in place.
  await dialog.getByLabel("Your server or handle").fill("not a server");
  await dialog.getByRole("button", { name: "Follow" }).click();
  await expect(page.getByText("Enter a server such as mastodon.social")).toBeVisible();
  await page.getByLabel("Your server or handle").fill("@me@Mastodon.example");
  if (js) {
    // Straight to the visitor's own server (answered here: the test machine has no internet).
    await page.route("https://mastodon.example/**", (r) => r.fulfill({ body: "follow page" }));
    await page.getByRole("button", { name: "Follow" }).click();
    await expect(page).toHaveURL(there);
  } else {
    await page.getByRole("button", { name: "Follow" }).click();
    await expect(page.getByRole("link", { name: "Continue on mastodon.example" })).toHaveAttribute("href", there);
  }
  await page.goto("/search");
  await expect(page.getByText("@name@mastodon.social finds someone on another server")).toBeVisible();
});
