// Settings as a person who let a Mastodon app in sees it: the app is named in "Where you are
// signed in" with what it may do (not "Unknown device"), and changing the email asks for the
// current password. With SCREENS=1, screenshots for the record: docs/screens/issue-46/.
import { expect, signedIn, test } from "./fixtures";

const REDIRECT = "http://127.0.0.1:9/callback";

test("an authorised app shows in Sessions by its name and what it may do; the email form asks for the password", async ({
  page,
  js,
}) => {
  await signedIn(page, "App Owner");
  const reg = await page.request.post("/api/v1/apps", {
    data: { client_name: "Ivory for Mac", redirect_uris: REDIRECT, scopes: "read write" },
  });
  const app = await reg.json();
  const consent = await page.request.post("/v1/oauth/authorize", {
    data: { response_type: "code", client_id: app.client_id, redirect_uri: REDIRECT, scope: "read write" },
  });
  const { code } = await consent.json();
  const token = await page.request.post("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
    },
  });
  expect(token.status()).toBe(200);

  await page.goto("/settings");
  const row = page.locator(".session").filter({ hasText: "Ivory for Mac" });
  await expect(row).toBeVisible();
  await expect(row.locator(".pill", { hasText: "App" })).toBeVisible();
  await expect(row.getByText("May: See everything in your account; Post, like")).toBeVisible();
  await expect(row.getByRole("button", { name: "Revoke Ivory for Mac" })).toBeVisible();
  await expect(page.locator(".session").filter({ hasText: "Unknown device" })).toHaveCount(0);

  await page.goto("/settings?edit=email");
  await expect(page.getByLabel("Current password")).toBeVisible();

  // Pictures to look at, not checks: only with SCREENS=1, as every spec's screenshots for the record.
  if (!js || !process.env.SCREENS) return;
  for (const [device, width, height] of [
    ["desktop", 1280, 900],
    ["phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto("/settings");
      await page
        .locator("section[aria-labelledby=h-sessions]")
        .screenshot({ path: `docs/screens/issue-46/sessions-app-${device}-${theme}.png` });
      await page.goto("/settings?edit=email");
      await page
        .locator("section[aria-labelledby=h-email]")
        .screenshot({ path: `docs/screens/issue-46/email-password-${device}-${theme}.png` });
    }
  }
});
