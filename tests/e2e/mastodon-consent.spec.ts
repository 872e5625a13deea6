// A Mastodon app's sign-in as a person sees it: the consent page (/oauth/authorize) signs a visitor
// in on the page, names the app and its scopes, and sends the code back (or shows it out of band);
// the token it buys works, and Settings → Authorised apps revokes it. With JavaScript and without.
import { expect, type Page } from "@playwright/test";
import { signedIn, test, uniq } from "./fixtures";
import { appRedirect, REDIRECT } from "./mastodon-consent";

async function registerApp(page: Page, redirect = REDIRECT) {
  const res = await page.request.post("/api/v1/apps", {
    data: { client_name: "Playwright App", redirect_uris: redirect, scopes: "read write" },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { client_id: string; client_secret: string };
}

async function challenge() {
  const verifier = uniq("v").padEnd(50, "x");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  const b64 = Buffer.from(digest).toString("base64url");
  return { verifier, challenge: b64 };
}

test("a visitor signs in on the consent page, authorises, and the app's token works until revoked", async ({
  page,
  context,
}) => {
  const app = await registerApp(page);
  const account = { username: uniq("m"), password: "secret123" };
  // An account made elsewhere (its own request context), so this page starts as a visitor.
  const other = await context.request.post("/v1/signup", {
    data: { ...account, email: `${account.username}@example.com`, name: "App Person" },
    headers: { cookie: "" },
  });
  expect(other.status()).toBe(201);
  await context.clearCookies();
  const { verifier, challenge: code_challenge } = await challenge();
  const q = new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "read write",
    state: "xyz",
    code_challenge,
    code_challenge_method: "S256",
  });
  await page.goto(`/oauth/authorize?${q}`);
  await expect(page.getByRole("heading", { name: "Authorise Playwright App" })).toBeVisible();
  await expect(page.getByText("(write)")).toBeVisible();
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("button", { name: "Authorise" })).toBeVisible();
  const toApp = appRedirect(page);
  await page.getByRole("button", { name: "Authorise" }).click();
  const back = await toApp;
  expect(back.searchParams.get("state")).toBe("xyz");
  const token = await page.request.post("/oauth/token", {
    form: {
      grant_type: "authorization_code",
      code: back.searchParams.get("code") ?? "",
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
      code_verifier: verifier,
    },
  });
  expect(token.status()).toBe(200);
  const { access_token } = await token.json();
  const me = await page.request.get("/api/v1/accounts/verify_credentials", {
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect((await me.json()).username).toBe(account.username);

  await page.goto("/settings/apps");
  await expect(page.getByText("Playwright App")).toBeVisible();
  await page.getByRole("button", { name: "Revoke Playwright App" }).click();
  await expect(page.getByText("No app is signed in to your account.")).toBeVisible();
  const after = await page.request.get("/api/v1/accounts/verify_credentials", {
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(after.status()).toBe(401);
});

test("an out-of-band app gets the code shown; an unregistered redirect URI is shown as an error", async ({ page }) => {
  await signedIn(page);
  const app = await registerApp(page, "urn:ietf:wg:oauth:2.0:oob");
  const q = new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
    response_type: "code",
  });
  await page.goto(`/oauth/authorize?${q}`);
  await page.getByRole("button", { name: "Authorise" }).click();
  await expect(page.getByRole("heading", { name: "Your authorisation code" })).toBeVisible();
  await expect(page.locator(".oauth-code")).toHaveText(/^[\w-]{43}$/);
  q.set("redirect_uri", "https://evil.example/cb");
  await page.goto(`/oauth/authorize?${q}`);
  await expect(page.getByRole("heading", { name: "This app cannot sign in" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Authorise" })).toHaveCount(0);
});

test("the consent page's form-action allows only the app's registered redirect URI, never one it did not register", async ({
  page,
}) => {
  const app = await registerApp(page);
  const ask = (redirect: string) =>
    page.goto(
      `/oauth/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: redirect, response_type: "code" })}`,
    );
  const formAction = (csp: string | undefined) => /form-action ([^;]*)/.exec(csp ?? "")?.[1];
  const unregistered = await ask("https://evil.example/cb");
  await expect(page.getByRole("heading", { name: "This app cannot sign in" })).toBeVisible();
  expect(formAction(unregistered?.headers()["content-security-policy"])).toBe("'self'");
  const registered = await ask(REDIRECT);
  expect(formAction(registered?.headers()["content-security-policy"])).toBe("'self' http://127.0.0.1:9");
  expect(registered?.headers()["x-notex-form-target"]).toBeUndefined();
});
