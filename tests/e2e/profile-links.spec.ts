// A profile to link from a CV (issue 46 item 5): a headline, a place and links edited in Settings →
// Profile, each link verified as Mastodon verifies one (its page links back with rel="me") and
// shown with a check mark, and "See as visitor": the owner's profile as anyone else gets it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, signedIn, test } from "./fixtures";

/** A personal site on this machine: /{name} links back to `profile` with rel="me", /plain does not. */
async function personalSite(profile: string) {
  const server = http.createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(
      req.url === "/plain"
        ? `<html><body><a href="${profile}">my profile, without rel=me</a></body></html>`
        : `<html><head><link rel="me" href="${profile}"></head><body>Home</body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((r) => server.close(r)) };
}

test("Settings → Profile takes a headline, a place and links; a link that links back gets a check mark", async ({
  page,
  baseURL,
}) => {
  const me = await signedIn(page, "Grace Linked");
  const site = await personalSite(`${baseURL}/${me.username}`);
  try {
    await page.goto("/settings");
    await page.getByRole("link", { name: "Edit profile" }).click();
    await expect(page).toHaveURL(/\/settings\/profile$/);
    await page.getByLabel("Headline").fill("Compiler engineer at Remington Rand");
    await page.getByLabel("Location").fill("Arlington, Virginia");
    await page.getByLabel("Link 1 label").fill("Website");
    await page.getByLabel("Link 1 address").fill(`${site.origin}/grace`);
    await page.getByLabel("Link 2 address").fill(`${site.origin}/plain`);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/saved=profile/);
    await expect(page.getByLabel("Link 1 address")).toHaveValue(`${site.origin}/grace`);

    await page.goto(`/${me.username}`);
    const head = page.locator(".profile-head");
    await expect(head.getByText("Compiler engineer at Remington Rand")).toBeVisible();
    await expect(head.getByText("Arlington, Virginia")).toBeVisible();
    const website = head.locator(".profile-about li", { hasText: "Website" });
    await expect(website.getByRole("link")).toHaveAttribute("href", `${site.origin}/grace`);
    await expect(website.getByRole("link")).toHaveAttribute("rel", /\bme\b/);
    // Verified after the answer (the request's waitUntil): a later look shows the mark.
    await expect(async () => {
      await page.reload();
      await expect(website.getByText("Verified: this page links back to the profile")).toBeAttached({ timeout: 500 });
    }).toPass({ timeout: 20_000 });
    const plain = head.locator(".profile-about li", { hasText: "/plain" });
    await expect(plain).toBeVisible();
    await expect(plain.locator(".verified-mark")).toHaveCount(0);
  } finally {
    await site.close();
  }
});

test("a link that is not a web address is refused beside its field, and nothing changes", async ({ page }) => {
  const me = await signedIn(page, "Careful Linker");
  await page.goto("/settings/profile");
  await page.getByLabel("Link 1 address").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Link must start with https://")).toBeVisible();
  expect((await (await page.request.get(`/v1/users/${me.username}`)).json()).links).toEqual([]);
});

test("See as visitor shows the owner's profile as anyone else gets it, and the way back", async ({ page }) => {
  const me = await signedIn(page, "Ada Preview");
  await page.request.patch("/v1/users", { data: { name: "Ada Preview", headline: "Analyst of engines" } });
  await page.goto(`/${me.username}`);
  await expect(page.getByRole("link", { name: "Edit Profile" })).toBeVisible();
  await page.getByRole("link", { name: "See as visitor" }).click();
  await expect(page).toHaveURL(/as=visitor/);
  await expect(page.getByRole("status").filter({ hasText: "This is your profile as visitors see it." })).toBeVisible();
  await expect(page.getByText("Analyst of engines")).toBeVisible();
  // What a visitor gets: Follow (asking how), never Edit Profile or an owner's New folder.
  await expect(page.getByRole("link", { name: "Edit Profile" })).toHaveCount(0);
  await expect(page.locator(".profile-head").getByRole("link", { name: "Follow", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Back to your profile" }).click();
  await expect(page.getByRole("link", { name: "Edit Profile" })).toBeVisible();
});
