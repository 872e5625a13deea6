import type { Browser } from "@playwright/test";
import { expect, personWithNote, signedIn, test, uniq } from "./fixtures";

/** A second person, in their own browser context, who writes a note through the API. */
const author = (browser: Browser) => personWithNote(browser, "Ada Author", `Thoughts ${uniq("t")}`);

test("two people meet: follow, like, reply to a reply, bookmark, report, notifications", async ({
  page,
  browser,
  js,
}) => {
  const _baseURL = test.info().project.use.baseURL as string;
  const a = await author(browser);
  const me = await signedIn(page, "Bob Reader");

  // Follow from the profile; the counts follow the rows.
  await page.goto(`/${a.account.username}`);
  await expect(page.getByRole("heading", { name: "Ada Author" })).toBeVisible();
  await page.getByRole("button", { name: "Follow" }).click();
  await expect(page.getByText("Following", { exact: true })).toBeVisible();
  await page.goto(`/${a.account.username}`);
  await expect(page.getByRole("link", { name: "1 follower", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "1 follower", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Followers" }).getByText(`@${me.username}`)).toBeVisible();

  // Like and reply on the note page.
  await page.goto(`/${a.account.username}/note/${a.noteId}`);
  await page.getByRole("button", { name: "Like 0" }).click();
  await expect(page.getByRole("button", { name: "Unlike 1" })).toBeVisible();
  await page.getByPlaceholder("Write your reply").fill("First reply");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByText("Your reply has been published")).toBeVisible();
  await expect(page.getByRole("article", { name: "Reply by Bob Reader" })).toBeVisible();

  // The author replies to the reply; the reader opens the thread.
  const replies = await (await a.page.request.get(`/v1/replies?pid=${-a.noteId}&page=1`)).json();
  const r1 = replies.replies[0].id;
  const r2 = await (
    await a.page.request.post("/v1/replies", { data: { parent: r1, content: "<p>Reply to your reply</p>" } })
  ).json();
  await page.goto(`/${a.account.username}/rep/${r2.id}`);
  await expect(page.getByText("Reply to your reply")).toBeVisible();
  await expect(page.getByText("First reply")).toBeVisible();
  await page.getByPlaceholder("Write your reply").fill("Third in the chain");
  await page.getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByText("Your reply has been published")).toBeVisible();

  // Bookmark and report from the note menu.
  await page.goto(`/${a.account.username}/note/${a.noteId}`);
  await page.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("button", { name: "Bookmark", exact: true }).click();
  if (js) await expect(page.getByText("Bookmarked")).toBeVisible();
  await page.goto("/bookmarks");
  await expect(page.getByText(a.text)).toBeVisible();
  await page.goto(`/${a.account.username}/note/${a.noteId}`);
  await page.getByLabel("Note menu", { exact: true }).click();
  await page.getByRole("link", { name: "Report" }).click();
  const dlg = page.getByRole("dialog", { name: "Report" });
  await dlg.getByLabel("Misleading Content").check();
  await dlg.getByRole("button", { name: "Report" }).click();
  await expect(page.getByText("Thanks, we received your report.")).toBeVisible();

  // The author sees the notifications; opening the list resets the badge.
  await a.page.goto("/notifications");
  await expect(a.page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  for (const text of ["followed you", "liked your note", "replied to you"])
    await expect(a.page.getByText(text).first()).toBeVisible();
  await a.page.goto("/");
  await expect(a.page.getByRole("navigation", { name: "Main" }).locator(".badge")).toHaveCount(0);
  await a.ctx.close();
});

test("a visitor's Follow asks how, and Log in opens the login dialog", async ({ page, browser }) => {
  const a = await author(browser);
  await a.ctx.close();
  await page.goto(`/${a.account.username}`);
  await page.getByRole("link", { name: "Follow", exact: true }).click();
  await page
    .getByRole("dialog", { name: /^Follow / })
    .getByRole("link", { name: "Log in" })
    .click();
  await expect(page.getByRole("dialog", { name: "Log in to NoteX" })).toBeVisible();
});

test("edit profile with the spec's messages", async ({ page }) => {
  const me = await signedIn(page, "Old Name");
  await page.goto(`/${me.username}`);
  await page.getByRole("link", { name: "Edit Profile" }).click();
  const dlg = page.getByRole("dialog", { name: "Edit Profile" });
  await dlg.getByLabel("Name").fill("");
  await dlg.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await page.getByRole("dialog", { name: "Edit Profile" }).getByLabel("Name").fill("New Name");
  await page.getByRole("dialog", { name: "Edit Profile" }).getByLabel("Description").fill("Writes about the edge.");
  await page.getByRole("dialog", { name: "Edit Profile" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("heading", { name: "New Name" })).toBeVisible();
  await expect(page.getByText("Writes about the edge.")).toBeVisible();
});

test("the owner edits a reply, with the spec's message when it is emptied", async ({ page }) => {
  const me = await signedIn(page, "Reply Editor");
  const { note } = await (
    await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Thread start</p>" } })
  ).json();
  const reply = await (
    await page.request.post("/v1/replies", { data: { parent: -note.id, content: "<p>First draft</p>" } })
  ).json();
  await page.goto(`/${me.username}/note/${note.id}`);
  const card = page.getByRole("article", { name: "Reply by Reply Editor" });
  await card.getByRole("link", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit reply" });
  await expect(dialog.getByLabel("Reply")).toHaveValue("First draft");
  await dialog.getByLabel("Reply").fill("");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog", { name: "Edit reply" }).getByRole("alert")).toHaveText(
    "Please enter your reply.",
  );
  await page.getByRole("dialog", { name: "Edit reply" }).getByLabel("Reply").fill("Second thoughts");
  await page.getByRole("dialog", { name: "Edit reply" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(card.getByText("Second thoughts")).toBeVisible();
  const saved = await (await page.request.get(`/v1/replies/${reply.id}/username/${me.username}`)).json();
  expect(saved.replies.at(-1).txt).toBe("Second thoughts");
});
