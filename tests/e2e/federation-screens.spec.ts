// Screenshots of a remote person in NoteX for the record (docs/screens/issue-33/): their
// profile with a post and its picture, and Search finding them by handle; desktop and mobile, light
// and dark. Only with SCREENS=1 (they are pictures to look at, not checks).
import { type Peer, startPeer } from "./fedi-peer";
import { expect, signedIn, test, uniq } from "./fixtures";

test.skip(!process.env.SCREENS, "screenshots only with SCREENS=1");

let peer: Peer;
test.beforeAll(async () => {
  peer = await startPeer(8865 + test.info().parallelIndex);
});
test.afterAll(async () => {
  await peer?.close();
});

const DEVICES = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } };

test("remote profile and search result, desktop and mobile, light and dark", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signedIn(page, "Grace Reader");
  const name = `ada_${uniq("s").slice(-4).toLowerCase()}`;
  const handle = `@${name}@${peer.host}`;
  await page.goto(`/search?q=${encodeURIComponent(handle)}`);
  await page.getByRole("region", { name: "Account found by handle" }).getByRole("button", { name: "Follow" }).click();
  await expect.poll(() => peer.followersOf(name).length, { timeout: 40_000 }).toBe(1);
  await peer.post(name, "Notes from a small server: the queue delivered this, with a picture.");
  await expect(async () => {
    await page.goto(`/@${name}@${peer.host}`);
    await expect(page.getByText("Notes from a small server")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 40_000 });

  for (const [device, viewport] of Object.entries(DEVICES)) {
    for (const theme of ["light", "dark"]) {
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "theme", value: theme, url: baseURL ?? "" }]);
      for (const [shot, path] of [
        ["remote-profile", `/@${name}@${peer.host}`],
        ["search-handle", `/search?q=${encodeURIComponent(handle)}`],
      ]) {
        await page.goto(path);
        await page.evaluate(() => document.fonts.ready);
        await page.screenshot({ path: `docs/screens/issue-33/${shot}-${device}-${theme}.png`, fullPage: false });
      }
    }
  }
});
