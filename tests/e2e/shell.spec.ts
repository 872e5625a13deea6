// Issue 19: a signed-in browser with JavaScript loads a page as the shared app shell (no one's data,
// from the cache) and then the page's data; with JavaScript off it always gets the full page.
import { expect, signedIn, test } from "./fixtures";

test("signed in with JavaScript: the shell names no one, then the page fills in", async ({ page, js }) => {
  test.skip(!js, "the shell is for browsers that run JavaScript");
  const a = await signedIn(page, "Shell Person");
  // The first page is rendered in full; its script marks the browser as running JavaScript.
  await page.goto("/");
  expect((await page.context().cookies()).some((c) => c.name === "nx_js" && c.value === "1")).toBe(true);
  const res = await page.goto("/notifications");
  const html = (await res?.text()) ?? "";
  expect(res?.headers()["x-page-cache"]).toMatch(/^(hit|miss)$/);
  expect(res?.headers()["cache-control"]).toBe("private, no-store");
  expect(html).toContain('aria-busy="true"');
  expect(html).not.toContain(a.username);
  expect(html).not.toContain("Shell Person");
  // Then the page is the person's own, with their name in the sidebar and the list in place.
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  await expect(page.getByRole("link", { name: /Shell Person/ }).first()).toBeVisible();
  await expect(page.locator("[aria-busy]")).toHaveCount(0);
});

test("a stale JavaScript marker with JavaScript off still gets the full page", async ({ page, js, baseURL }) => {
  test.skip(js, "what a browser without JavaScript sees");
  await signedIn(page, "No Script");
  await page.context().addCookies([{ name: "nx_js", value: "1", url: baseURL ?? "" }]);
  await page.goto("/notifications?x=1");
  await expect(page).toHaveURL(/\/notifications\?x=1$/);
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  await expect(page.getByRole("link", { name: /No Script/ }).first()).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === "nx_js" && c.value === "1")).toBe(false);
});
