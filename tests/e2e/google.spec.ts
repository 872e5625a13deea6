import { expect, test, uniq } from "./fixtures";

// The whole redirect dance against the local OpenID provider the e2e server starts
// (scripts/oidc-provider.mjs): the provider's own login and consent pages, then our callback.

async function signInAtProvider(page: import("@playwright/test").Page, login: string) {
  await page
    .getByRole("link", { name: /Continue with Google/ })
    .first()
    .click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/interaction\//);
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

test("sign up with Google, land signed in, log out, and log in with Google again", async ({ page }) => {
  const login = uniq("gx");
  await page.goto("/login");
  await signInAtProvider(page, login);
  await expect(page).toHaveURL("/");
  // The new account's username comes from the email; it is signed in (the sidebar shows it).
  await expect(page.getByText(`@${login}`).first()).toBeVisible();
  const me = await page.request.get("/v1/me");
  expect(me.status()).toBe(200);
  const user = await me.json();
  expect(user.username).toBe(login);
  expect(user.email).toBe(`${login}@example.test`);

  // Signed out here and at the provider (its session cookie lives on 127.0.0.1 too).
  await page.context().clearCookies();
  await page.goto("/login");
  await signInAtProvider(page, login);
  await expect(page).toHaveURL("/");
  expect((await (await page.request.get("/v1/me")).json()).id).toBe(user.id);
});

test("the callback says please wait, and every failure ends in the spec's dialog with Close to /login", async ({
  page,
}) => {
  // An unverified email at the provider.
  await page.goto("/login");
  await signInAtProvider(page, `unverified${uniq("u")}`);
  await expect(page.getByText("Something went wrong, please try again!")).toBeVisible();
  await expect(page).toHaveURL(/\/callback\/google/);
  expect((await page.request.get("/v1/me")).status()).toBe(401);
  await page.getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL("/login");

  // A forged or replayed callback (no flow cookie for this state).
  const res = await page.goto("/callback/google?code=stolen&state=forged&go=1");
  expect(res?.status()).toBeLessThan(500);
  await expect(page.getByText("Something went wrong, please try again!")).toBeVisible();

  // Consent denied at the provider comes back with error=access_denied.
  await page.goto("/callback/google?error=access_denied&state=x");
  await expect(page.getByText("Something went wrong, please try again!")).toBeVisible();

  // The wait message, which moves on by itself (a meta refresh works without JavaScript too).
  const wait = await page.request.get("/callback/google?code=c1&state=s1", { maxRedirects: 0 });
  const html = await wait.text();
  expect(html).toContain("Logging in with Google, please wait ...");
  expect(html).toMatch(/http-equiv="refresh" content="0;url=\/callback\/google\?code=c1&amp;state=s1&amp;go=1"/);
});
