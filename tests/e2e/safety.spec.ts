import type { Browser } from "@playwright/test";
import { E2E_MODERATOR, expect, expectNotFound, personWithNote, signedIn, test, uniq } from "./fixtures";

/** Another person in their own browser context, with one note carrying `tag`. */
const person = (browser: Browser, name: string, tag: string) =>
  personWithNote(browser, name, `Note ${uniq("n")} #${tag}`);

test("mute from the profile menu and block from a note's menu; both undone from Settings' lists", async ({
  page,
  browser,
}) => {
  // Two people and a dozen page loads: more than the default budget on a busy machine.
  test.setTimeout(120_000);
  const tag = uniq("t");
  const a = await person(browser, "Ada Loud", tag);
  await signedIn(page, "Bob Quiet");
  const u = a.account.username;

  await page.goto(`/tag/${tag}`);
  await expect(page.getByText(a.text)).toBeVisible();
  await page.goto(`/${u}`);
  await page.getByLabel("Profile menu").click();
  await page.getByRole("button", { name: `Mute @${u}` }).click();
  // Done once the item offers the undo (the fetcher's answer, or the page it redirected back to).
  await expect(page.locator("button", { hasText: `Unmute @${u}` })).toHaveCount(1);
  await page.goto(`/tag/${tag}`);
  await expect(page.getByText(a.text)).toHaveCount(0);
  // A deliberate visit still shows them; the menu offers to undo.
  await page.goto(`/${u}?t=notes`);
  await expect(page.getByText(a.text)).toBeVisible();
  await page.goto("/settings");
  await page.getByRole("link", { name: "Muted accounts" }).click();
  await expect(page.getByRole("heading", { name: "Muted accounts" })).toBeVisible();
  await expect(page.getByText(`@${u}`)).toBeVisible();
  await page.getByRole("button", { name: `Unmute @${u}` }).click();
  await expect(page.getByText("You have not muted anyone.")).toBeVisible();

  await page.goto(`/tag/${tag}`);
  await page.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("link", { name: `Block @${u}…` }).click();
  await page
    .getByRole("dialog", { name: `Block @${u}?` })
    .getByRole("button", { name: "Block" })
    .click();
  // The list reloads (revalidation, or the redirect back) without their note.
  await expect(page.getByText(a.text)).toHaveCount(0);
  await page.goto(`/${u}`);
  await expect(page.getByText(`You have blocked @${u}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Follow" })).toHaveCount(0);
  // The blocked person learns it on the blocker's profile, and cannot follow.
  await a.page.goto(`/${(await page.request.get("/v1/me").then((r) => r.json())).username}`);
  await expect(a.page.getByText("has blocked you")).toBeVisible();

  await page.goto("/settings/blocked");
  await page.getByRole("button", { name: `Unblock @${u}` }).click();
  await expect(page.getByText("You have not blocked anyone.")).toBeVisible();
  await page.goto(`/tag/${tag}`);
  await expect(page.getByText(a.text)).toBeVisible();
  await a.ctx.close();
});

test("a moderator hides a reported note; the author is told why; others get 404", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const tag = uniq("t");
  const a = await person(browser, "Ada Spammer", tag);
  const reporter = await person(browser, "Rae Reporter", uniq("t"));
  await reporter.page.request.post("/v1/reports", { data: { nid: a.noteId, kind: 1 } });

  // An ordinary user has no Moderation entry and no page.
  await reporter.page.goto("/");
  await expect(reporter.page.getByRole("link", { name: "Moderation" })).toHaveCount(0);
  await expectNotFound(reporter.page, await reporter.page.goto("/moderation"));

  const login = await page.request.post("/v1/login", { data: E2E_MODERATOR });
  expect(login.status(), await login.text()).toBe(200);
  await page.goto("/");
  await page.getByRole("link", { name: "Moderation" }).first().click();
  await expect(page.getByRole("heading", { name: "Moderation" })).toBeVisible();
  const card = page.getByRole("article", { name: `Reports about note ${a.noteId}` });
  await expect(card.getByText(a.text)).toBeVisible();
  await expect(card.getByText("Spam", { exact: true })).toBeVisible();
  await expect(card.getByText(`@${reporter.account.username}`)).toBeVisible();
  await card.getByLabel("Action").selectOption("hide");
  await card.getByLabel("Reason (sent to the author)").fill("Unsolicited advertising");
  await card.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("article", { name: `Reports about note ${a.noteId}` })).toHaveCount(0);
  await page.goto("/moderation?tab=log");
  const entry = page.getByRole("listitem").filter({ hasText: `note ${a.noteId} by @${a.account.username}` });
  await expect(entry.getByText("Unsolicited advertising")).toBeVisible();

  const notePath = `/${a.account.username}/note/${a.noteId}`;
  await expectNotFound(reporter.page, await reporter.page.goto(notePath));
  await reporter.page.goto(`/tag/${tag}`);
  await expect(reporter.page.getByText(a.text)).toHaveCount(0);
  await a.page.goto(notePath);
  await expect(a.page.getByText("Hidden by the moderators")).toBeVisible();
  await a.page.goto("/notifications");
  await expect(a.page.getByText("hid your content")).toBeVisible();
  await expect(a.page.getByText("Unsolicited advertising")).toBeVisible();
  await a.ctx.close();
  await reporter.ctx.close();
});

test("an edited note says so and links to its versions", async ({ page }) => {
  await signedIn(page, "Eddie Tor");
  const { note } = await (
    await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>First draft</p>" } })
  ).json();
  await page.request.patch("/v1/notes", { data: { id: note.id, label: "idea", content: "<p>Second draft</p>" } });
  const me = await (await page.request.get("/v1/me")).json();
  await page.goto(`/${me.username}/note/${note.id}`);
  await page.getByRole("link", { name: "edited" }).click();
  await expect(page.getByRole("heading", { name: "Edit history" })).toBeVisible();
  await expect(page.getByText("Second draft")).toBeVisible();
  await expect(page.getByText("First draft")).toBeVisible();
  await expect(page.getByText("Original")).toBeVisible();
});
