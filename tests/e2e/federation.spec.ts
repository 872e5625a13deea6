// Someone on another server, as a NoteX person meets them: found by handle in Search, followed,
// and their post in Following. The other server is a small Fedify server on loopback in this
// process (fedi-peer.ts). Deliveries go through NoteX's queue: every wait polls what the page or
// the peer shows, never a fixed time.
import type { Locator } from "@playwright/test";
import { type Peer, startPeer } from "./fedi-peer";
import { expect, expectNotFound, signedIn, test, uniq } from "./fixtures";

// One peer per parallel worker, on a port of its own (8861, 8862, …).
let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer(8861 + test.info().parallelIndex);
});
test.afterAll(async () => {
  await peer?.close();
});

const DELIVERY = { timeout: 40_000 };

/** An image that the browser loaded and decoded, from this site's own origin. */
async function expectLoaded(img: Locator) {
  await img.scrollIntoViewIfNeeded();
  await expect(img).toHaveAttribute("src", /^\/img\/remote\//);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(16);
}

test("find a remote account by handle, follow it, and its post appears in Following", async ({ page }) => {
  test.setTimeout(90_000);
  await signedIn(page, "Fedi Reader");
  const name = uniq("r").toLowerCase();
  const handle = `@${name}@${peer.host}`;

  // From the top bar's search field, as a person would.
  await page.goto("/");
  const field = page.getByRole("searchbox", { name: "Search NoteX" });
  await field.fill(handle);
  await field.press("Enter");
  const found = page.getByRole("region", { name: "Account found by handle" });
  await expect(found.getByText(`Peer ${name}`)).toBeVisible();
  await expect(found.getByText(`${handle}`)).toBeVisible();
  await found.getByRole("button", { name: "Follow" }).click();
  await expect(found.getByText("Following")).toBeVisible();

  // The Follow reaches the peer through NoteX's queue, and the peer answers Accept.
  await expect.poll(() => peer.followersOf(name).length, DELIVERY).toBe(1);
  const text = `Hello from ${peer.host} ${uniq("n")}`;
  await peer.post(name, text);

  // Their Create is handled by NoteX's queue consumer: Following shows it once it has run.
  await expect(async () => {
    await page.goto("/?tab=following");
    await expect(page.getByText(text)).toBeVisible({ timeout: 1000 });
  }).toPass(DELIVERY);
  const card = page.getByRole("article", { name: `Note by Peer ${name}` });
  // Its picture and their avatar come through NoteX (the page's CSP allows no other origin).
  await expectLoaded(card.getByRole("img", { name: `A picture by ${name}` }));
  await expectLoaded(card.locator("img.avatar"));
  await expect(card.getByRole("link", { name: new RegExp(`Peer ${name}`) })).toHaveAttribute(
    "href",
    `/@${name}@${peer.host}`,
  );
});

test("a remote profile: name, handle with its server, bio as text, a link to the original, no x-folders", async ({
  page,
}) => {
  await signedIn(page, "Fedi Visitor");
  const name = uniq("p").toLowerCase();
  const res = await page.goto(`/@${name}@${peer.host}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: `Peer ${name}` })).toBeVisible();
  await expect(page.getByText(`@${name}@${peer.host}`, { exact: true })).toBeVisible();
  // The bio's markup went through the sanitiser: its text stays, the script is gone.
  await expect(page.getByText("Writes on a tiny server.")).toBeVisible();
  await expect(page.locator(".profile-head script")).toHaveCount(0);
  await expect(page.getByRole("link", { name: `View on ${peer.host}` })).toHaveAttribute(
    "href",
    `${peer.origin}/@${name}`,
  );
  await expect(page.getByRole("link", { name: "Portfolio" })).toHaveCount(0);
  await expectLoaded(page.locator(".profile-head img.avatar"));
  await expect(page.getByRole("button", { name: "Follow" })).toBeVisible();
  await page.getByLabel("Profile menu").click();
  await expect(page.getByRole("button", { name: `Mute @${name}@${peer.host}` })).toBeVisible();
  // The handle without the leading @ is the same page.
  await page.goto(`/${name}@${peer.host}`);
  await expect(page).toHaveURL(new RegExp(`/@${name}@${peer.host.replace(/\./g, "\\.")}$`));
});

test("a handle that finds no one says so, without an error page", async ({ page }) => {
  await signedIn(page, "Fedi Seeker");
  await page.goto(`/search?q=${encodeURIComponent(`@no_such_${uniq("x")}@127.0.0.1:1`)}`);
  await expect(page.getByRole("status").getByText(/No account @no_such_\w+@127\.0\.0\.1:1 was found/)).toBeVisible();
  await expectNotFound(page, await page.goto("/@nobody@127.0.0.1:1"));
});

test("someone elsewhere who mentions a person here is named with their server in Notifications", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signedIn(page, "Fedi Mentioned");
  const me = await (await page.request.get("/v1/me")).json();
  const name = uniq("m").toLowerCase();
  const actor = `${baseURL}/ap/users/${me.id}`;
  const text = `Hello from afar ${uniq("t")}`;
  await peer.post(name, text, { actor, inbox: `${actor}/inbox`, handle: `@${me.username}@127.0.0.1` });
  // The Create goes through NoteX's queue: Notifications shows it once the consumer has run.
  await expect(async () => {
    await page.goto("/notifications");
    await expect(page.getByText(`@${name}@${peer.host}`)).toBeVisible({ timeout: 1000 });
  }).toPass(DELIVERY);
  await expect(page.getByText(`Peer ${name}`)).toBeVisible();
});
