// A report on a post from another server, forwarded there when the reporter ticks "Forward to
// <host>" (Mastodon's wording): the other server gets a Flag from this server's instance actor,
// never from the reporter. The other server is the small Fedify server of fedi-peer.ts.
import { type Peer, startPeer } from "./fedi-peer";
import { expect, signedIn, test, uniq } from "./fixtures";

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer(8856 + test.info().parallelIndex);
});
test.afterAll(async () => {
  await peer?.close();
});

const DELIVERY = { timeout: 40_000 };

test("a report on a remote post can be forwarded to its server, as a Flag from this server", async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page, "Fedi Reporter");
  const name = uniq("f").toLowerCase();
  const found = await page.request.get(`/v1/users/${name}@${peer.host}`);
  expect(found.status()).toBe(200);
  expect((await page.request.post(`/v1/follows/${(await found.json()).id}`)).status()).toBe(200);
  await expect.poll(() => peer.followersOf(name).length, DELIVERY).toBe(1);
  const text = `Report me ${uniq("n")}`;
  await peer.post(name, text);
  await expect(async () => {
    await page.goto("/?tab=following");
    await expect(page.getByText(text)).toBeVisible({ timeout: 1000 });
  }).toPass(DELIVERY);

  const card = page.getByRole("article", { name: `Note by Peer ${name}` }).filter({ hasText: text });
  await card.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("link", { name: "Report", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Report", exact: true });
  await dialog.getByLabel("Spam").check();
  // Off unless the reporter asks for it (tests/api/federation-safety.test.ts: nothing is sent then).
  await expect(dialog.getByLabel(`Forward to ${peer.host}`)).not.toBeChecked();
  await dialog.getByLabel(`Forward to ${peer.host}`).check();
  await dialog.getByRole("button", { name: "Report" }).click();
  await expect(dialog.getByRole("status")).toContainText("Thanks, we received your report.");

  await expect.poll(() => peer.flags.length, DELIVERY).toBe(1);
  const [flag] = peer.flags;
  expect(flag.actor).toMatch(/\/ap\/users\/instance$/);
  expect(flag.objects).toContain(`${peer.origin}/users/${name}`);
  expect(flag.content).toBe("Spam");
});
