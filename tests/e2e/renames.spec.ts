// Issue 21 item 16: after a rename, every page under the old name answers a 301 to the same page
// under the new one (JavaScript on and off), until someone else holds the old name.
import { expect, expectNotFound, fromShell, signedIn, test, uniq } from "./fixtures";

test("links with an old username lead to the same page under the new one", async ({ page }) => {
  const me = await signedIn(page);
  const old = me.username;
  const folder = await (
    await page.request.post("/v1/folders", { data: { type: "Skill", name: "Knitting", descr: "", link: "" } })
  ).json();
  const made = await page.request.post("/v1/notes", {
    data: { label: "idea", content: "<p>Written before the rename</p>", folders: [folder.id] },
  });
  const noteId = (await made.json()).note.id;
  const reply = await page.request.post("/v1/replies", { data: { parent: -noteId, content: "<p>A reply</p>" } });
  const replyId = (await reply.json()).id;
  const to = uniq("r");
  expect((await page.request.patch("/v1/users/username", { data: { username: to } })).status()).toBe(200);

  const pages: [string, string, RegExp][] = [
    [`/${old}`, `/${to}`, new RegExp(`@${to}`)],
    [`/${old}?t=notes`, `/${to}?t=notes`, /Written before the rename/],
    [`/${old}/note/${noteId}`, `/${to}/note/${noteId}`, /Written before the rename/],
    [`/${old}/note/${noteId}/history`, `/${to}/note/${noteId}/history`, /Edit history|Written before the rename/],
    [`/${old}/rep/${replyId}`, `/${to}/rep/${replyId}`, /A reply/],
    [`/${old}/x/${folder.slug}`, `/${to}/x/${folder.slug}`, /Knitting/],
  ];
  for (const [from, path, shows] of pages) {
    const res = await page.goto(from);
    expect(res?.status(), from).toBe(200);
    // The app shell's document is the same for every address; its data request gets the 301.
    if (!fromShell(res)) {
      expect(res?.request().redirectedFrom()?.url(), from).toBe(new URL(from, page.url()).href);
      expect((await res?.request().redirectedFrom()?.response())?.status(), from).toBe(301);
    }
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search, from).toBe(path);
    await expect(page.locator("main"), from).toContainText(shows);
  }
  const feed = await page.request.get(`/${old}/rss`, { maxRedirects: 0 });
  expect(feed.status()).toBe(301);
  expect(feed.headers().location).toBe(`/${to}/rss`);

  // A wrong note id under the old name is still not found (after the redirect, under the new one).
  await expectNotFound(page, await page.goto(`/${old}/note/${noteId + 100000}`));
});

test("someone else cannot take the old name while it is reserved", async ({ page }) => {
  await signedIn(page);
  const old = (await (await page.request.get("/v1/me")).json()).username;
  expect((await page.request.patch("/v1/users/username", { data: { username: uniq("r") } })).status()).toBe(200);
  await page.context().clearCookies();
  await signedIn(page, "Second Person");
  await page.goto("/settings?edit=username");
  await page.locator("input[name=username]").fill(old);
  await page.getByRole("button", { name: "Save", exact: true }).first().click();
  await expect(page.getByText("username is taken")).toHaveCount(1);
  // The old name's page is still the first person's, under their new name.
  const res = await page.goto(`/${old}`);
  if (!fromShell(res)) expect(res?.request().redirectedFrom()).not.toBeNull();
  await expect(page).not.toHaveURL(new RegExp(`/${old}$`));
});
