// Settings as a page among the others: the same column width, Delete account last, a theme that
// shows at once (with JavaScript), and a password change that says the other devices were signed out.
import { expect, signedIn, test } from "./fixtures";

test("Settings has every page's column width and puts Delete account last", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signedIn(page, "Wide Settings");
  await page.goto("/bookmarks");
  const other = await page.locator("main .page").first().boundingBox();
  await page.goto("/settings");
  const settings = await page.locator("main .page").first().boundingBox();
  expect(settings?.width).toBe(other?.width);
  const headings = await page.locator("main .page h2").allTextContents();
  expect(headings.at(-1)).toBe("Delete account");
  // The theme sits with the other preferences, before where you are signed in and leaving.
  const order = await page.locator("main .page :is(h2, legend)").allTextContents();
  expect(order.indexOf("Theme")).toBeLessThan(order.indexOf("Where you are signed in"));
});

test("choosing a theme shows it at once and keeps it", async ({ page, js }) => {
  test.skip(!js, "without JavaScript the choice is posted with Save theme (theme.spec.ts)");
  await signedIn(page);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/settings");
  await page.getByRole("radio", { name: "Dark" }).check();
  // No Save pressed: the page is dark already, and stays so on the next page.
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value).toBe("dark");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
});

test("after a password change Settings says the other devices were signed out", async ({ page, browser }) => {
  const a = await signedIn(page, "Careful Changer");
  // A second device, signed in as the same person.
  const baseURL = test.info().project.use.baseURL as string;
  const other = await browser.newContext({ baseURL });
  const login = await other.request.post("/v1/login", { data: { username: a.username, password: a.password } });
  expect(login.status()).toBe(200);

  await page.goto("/settings?edit=password");
  await page.getByLabel("Current password").fill(a.password);
  await page.getByLabel("New password", { exact: true }).fill("secret456");
  await page.getByLabel("Confirm password", { exact: true }).fill("secret456");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "Password changed. Every other device signed in to your account was signed out" }),
  ).toBeVisible();
  expect((await other.request.get("/v1/me")).status()).toBe(401);
  await other.close();
});
