// The consent a person gives an app in a browser with JavaScript off: signed in, they open the
// app's authorisation URL, press Authorise, and the app reads the code from its redirect.
import { type Browser, expect } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { type Account, signedIn, uniq } from "./fixtures";

export const REDIRECT = "http://127.0.0.1:9/masto-callback";

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
  await page.route(`${REDIRECT}**`, (route) => route.fulfill({ contentType: "text/html", body: "<p>app</p>" }));
  await page.getByRole("button", { name: "Authorise" }).click();
  await page.waitForURL((url) => url.href.startsWith(REDIRECT));
  const code = new URL(page.url()).searchParams.get("code") ?? "";
  await context.close();
  return { account, code };
}
