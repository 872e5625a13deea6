import type { Page } from "@playwright/test";
import axios from "axios";
import generator, { type Entity } from "megalodon";
import { baseURL } from "../../playwright.config";
import { expect, otherPerson, postNote, signedIn, test, uniq } from "./fixtures";
import { consentCode, REDIRECT } from "./mastodon-consent";

// Live pages: with JavaScript, a followed person's new note shows as a "1 new note" pill and the
// notification badge counts up, an open note page shows a new reply and its like count move, all
// without a reload and through one socket; without JavaScript nothing opens a socket. And a
// client library NoteX did not write (megalodon, behind Whalebird) streams from it over real sockets.

/** Records the page's sockets and whether the page navigated (a reload would). */
function watch(page: Page) {
  const seen = { sockets: [] as string[], navigated: false };
  page.on("websocket", (ws) => seen.sockets.push(ws.url()));
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) seen.navigated = true;
  });
  return seen;
}

test("a followed person's note shows as '1 new note' and moves the badge, without a reload", async ({
  page,
  playwright,
  js,
}) => {
  await signedIn(page, "Live Reader");
  const other = await otherPerson(playwright);
  const { id: otherId } = await (await other.req.get("/v1/me")).json();
  expect((await page.request.post(`/v1/follows/${otherId}`)).ok()).toBe(true);
  const seen = watch(page);
  await page.goto("/?tab=following");
  if (!js) {
    await expect(page.getByText("Following").first()).toBeVisible();
    expect(seen.sockets).toEqual([]);
    await other.req.dispose();
    return;
  }
  await expect(page.locator("html[data-live=open]")).toHaveCount(1);
  const badge = page.getByRole("link", { name: /^Notifications/ }).first();
  // No badge at all when there is nothing unread (allTextContents does not wait for one).
  const before = Number((await badge.locator(".badge").allTextContents())[0]?.match(/\d+/)?.[0] ?? 0);
  seen.navigated = false;

  const res = await other.req.post("/v1/notes", {
    data: { label: "idea", content: "<p>Fresh from the other side</p>" },
  });
  expect(res.ok()).toBe(true);
  const pill = page.getByRole("button", { name: "1 new note" });
  await expect(pill).toBeVisible();
  await expect(badge.locator(".badge")).toContainText(String(before + 1));
  await expect(page.getByText("Fresh from the other side")).toHaveCount(0);
  await pill.click();
  await expect(page.getByText("Fresh from the other side")).toBeVisible();
  await expect(pill).toHaveCount(0);
  expect(seen.navigated).toBe(false);
  expect(seen.sockets).toHaveLength(1);
  await other.req.dispose();
});

test("an open note page shows a new reply and its like count move, without a reload", async ({
  page,
  playwright,
  js,
}) => {
  test.skip(!js, "the no-JS page is a plain document (the test above checks no socket opens)");
  const me = await signedIn(page, "Live Writer");
  const id = await postNote(page, "Talk to me live");
  const seen = watch(page);
  await page.goto(`/${me.username}/note/${id}`);
  await expect(page.locator("html[data-live=open]")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /^Like/ }).first()).toHaveAccessibleName("Like 0");
  seen.navigated = false;

  const other = await otherPerson(playwright);
  expect((await other.req.post("/v1/replies", { data: { parent: -id, content: "<p>A live answer</p>" } })).ok()).toBe(
    true,
  );
  await expect(page.getByText("A live answer")).toBeVisible();
  expect((await other.req.post(`/v1/likes/${id}?t=note`)).ok()).toBe(true);
  await expect(page.getByRole("button", { name: /^Like/ }).first()).toHaveAccessibleName("Like 1");
  expect(seen.navigated).toBe(false);
  expect(seen.sockets).toHaveLength(1);
  await other.req.dispose();
});

test("megalodon's user stream receives update, notification and delete within 2 s", async ({
  browser,
  playwright,
  js,
}) => {
  test.skip(js, "the consent page is used with JavaScript off; the stream itself is Node's");
  const http = () => axios.create({ timeout: 20_000, headers: { "x-test-client": uniq("g") } });
  const anon = generator("mastodon", baseURL, null, null, http());
  const app = await anon.registerApp("megalodon live", {
    redirect_uris: REDIRECT,
    scopes: ["read", "write", "follow"],
  });
  const { code } = await consentCode(browser, app.client_id, "megalodon live");
  const token = await anon.fetchAccessToken(app.client_id, app.client_secret, code, REDIRECT);
  const client = generator("mastodon", baseURL, token.access_token, null, http());
  const other = await otherPerson(playwright);
  const { id: otherId } = await (await other.req.get("/v1/me")).json();
  await client.followAccount(String(otherId));

  const events: { event: string; data: unknown }[] = [];
  const stream = await client.userStreaming();
  for (const event of ["update", "notification", "delete"])
    stream.on(event, (data: unknown) => events.push({ event, data }));
  await new Promise((resolve) => stream.once("connect", resolve));
  /** The first event of kind `event` that `match`es, waited for at most 2 s. */
  const within2s = (event: string, match: (data: unknown) => boolean) =>
    expect
      .poll(() => events.find((e) => e.event === event && match(e.data))?.data, { timeout: 2000, intervals: [50] })
      .toBeTruthy();

  const made = await other.req.post("/v1/notes", { data: { label: "idea", content: "<p>Streamed to megalodon</p>" } });
  const statusId = String((await made.json()).note.id);
  await within2s("update", (s) => (s as Entity.Status).id === statusId);
  await within2s("notification", (n) => (n as Entity.Notification).status?.id === statusId);
  expect((await other.req.delete(`/v1/notes/${Number(statusId)}`)).ok()).toBe(true);
  await within2s("delete", (id) => id === statusId);
  stream.stop();
  await other.req.dispose();
});
