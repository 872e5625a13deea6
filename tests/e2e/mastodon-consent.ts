// The consent a person gives an app in a browser with JavaScript off: signed in, they open the
// app's authorisation URL, press Authorise, and the app reads the code from its redirect.
import { type Browser, expect, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { type Account, signedIn, uniq } from "./fixtures";

export const REDIRECT = "http://127.0.0.1:9/masto-callback";

/**
 * The URL the browser is sent to at the app's redirect URI, read from the request it makes. Nothing
 * answers there (Chromium's headless shell refuses the port before a test's route could answer), so
 * the visit itself ends on the browser's error page; the code and state are in the request.
 */
export async function appRedirect(page: Page) {
  const request = await page.waitForRequest((req) => req.url().startsWith(REDIRECT));
  return new URL(request.url());
}

/** A new person's consent to the app `clientId` named `appName`: the person and the code (PKCE when `challenge`). */
export async function consentCode(
  browser: Browser,
  clientId: string,
  appName: string,
  challenge?: string,
): Promise<{ account: Account; code: string }> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await context.setExtraHTTPHeaders({ "x-test-client": uniq("c") });
  const page = await context.newPage();
  const account = await signedIn(page);
  const q = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "read write follow",
    state: "s1",
    ...(challenge ? { code_challenge: challenge, code_challenge_method: "S256" } : {}),
  });
  await page.goto(`/oauth/authorize?${q}`);
  await expect(page.getByRole("heading", { name: `Authorise ${appName}` })).toBeVisible();
  const toApp = appRedirect(page);
  await page.getByRole("button", { name: "Authorise" }).click();
  const code = (await toApp).searchParams.get("code") ?? "";
  await context.close();
  return { account, code };
}
