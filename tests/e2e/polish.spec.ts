import { expect, signedIn, test } from "./fixtures";

// Small things that make NoteX feel finished: empty lists say how to fill them, the consent page
// says who is approving, the out-of-band code can be copied.

test("empty Bookmarks and Notifications say how to fill them", async ({ page }) => {
  await signedIn(page);
  await page.goto("/bookmarks");
  await expect(page.getByText(/No bookmarks yet\. .*choose Bookmark/)).toBeVisible();
  await page.goto("/bookmarks?t=rep");
  await expect(page.getByText(/No bookmarks yet\. .*choose Bookmark/)).toBeVisible();
  await page.goto("/notifications");
  await expect(page.getByText("No notifications yet")).toBeVisible();
  await expect(page.getByText(/follows you, or likes, replies to, renotes or quotes/)).toBeVisible();
});

test("the consent page names the account that approves, and the out-of-band code has a copy button", async ({
  page,
  js,
}) => {
  const me = await signedIn(page, "Approving Person");
  const res = await page.request.post("/api/v1/apps", {
    data: { client_name: "Polish App", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" },
  });
  const app = await res.json();
  const q = new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
    response_type: "code",
    scope: "read",
  });
  await page.goto(`/oauth/authorize?${q}`);
  await expect(page.getByText(`You are approving as Approving Person (@${me.username}).`)).toBeVisible();
  await page.getByRole("button", { name: "Authorise" }).click();
  await expect(page.getByRole("heading", { name: "Your authorisation code" })).toBeVisible();
  if (!js) return;
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy code" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
});
