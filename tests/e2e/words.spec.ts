import { expect, othersNotes, signedIn, test, uniq } from "./fixtures";

// One word per thing (Bookmark, Sign up, Log in, renote), and every action says it happened.

test("the note menu says Bookmark, and the bookmark says so", async ({ page, playwright, js }) => {
  await signedIn(page);
  const other = await othersNotes(playwright, "Keep this one");
  await page.goto(`/${other.username}/note/${other.ids[0]}?dialog=note-menu&id=${other.ids[0]}`);
  const dialog = page.getByRole("dialog", { name: "Note actions" });
  await expect(dialog.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Bookmark", exact: true }).click();
  if (js) await expect(page.getByRole("status").filter({ hasText: "Bookmarked" })).toBeVisible();
  await page.goto(`/${other.username}/note/${other.ids[0]}?dialog=note-menu&id=${other.ids[0]}`);
  await expect(dialog.getByRole("button", { name: "Remove bookmark", exact: true })).toBeVisible();
});

test("a quote says it was posted, and an unlabelled note's search result starts with its counts", async ({
  page,
  playwright,
}) => {
  await signedIn(page);
  const other = await othersNotes(playwright, "Quote me");
  const words = uniq("quoted");
  await page.goto(`/${other.username}/note/${other.ids[0]}?dialog=quote&id=${other.ids[0]}`);
  const dialog = page.getByRole("dialog", { name: "Quote" });
  await dialog.getByRole("textbox").fill(`Well said ${words}`);
  await dialog.getByRole("button", { name: /^(Quote|Save|Post)/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your quote has been posted" })).toBeVisible();

  await page.goto(`/search?q=${words}&t=notes`);
  const meta = page.locator(".hit-meta").first();
  await expect(meta).toHaveText(/^\d+ likes? · \d+ repl(y|ies)$/);
});

test("the inline composer's button says what it does; the folder filter reads All types", async ({ page }) => {
  const me = await signedIn(page);
  await page.goto("/");
  const prompt = page.locator(".composer-prompt");
  await expect(prompt).toContainText("New note");
  await expect(prompt).not.toContainText("NoteX");
  await page.request.post("/v1/folders", { data: { type: "Skill", name: "Knitting", descr: "", link: "" } });
  await page.goto(`/${me.username}`);
  await expect(page.getByRole("option", { name: "All types" })).toHaveCount(1);
  await expect(page.getByRole("option", { name: "All type", exact: true })).toHaveCount(0);
});

test("the consent page says renote, NoteX's word, not reblog", async ({ page }) => {
  await signedIn(page);
  const res = await page.request.post("/api/v1/apps", {
    data: { client_name: "Words App", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" },
  });
  const app = await res.json();
  const q = new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
    response_type: "code",
    scope: "read write",
  });
  await page.goto(`/oauth/authorize?${q}`);
  await expect(page.getByText(/renote/)).toBeVisible();
  await expect(page.getByText(/reblog/)).toHaveCount(0);
});
