import { expect, otherPerson, test, uniq } from "./fixtures";

// A visitor's first page sells what NoteX is for: joining first, a real portfolio and a real thread
// from the network, the fediverse named, and nothing a visitor cannot use.

test("a visitor's first page leads with Sign up, shows a real portfolio and thread, names Mastodon, hides member-only entries", async ({
  page,
  playwright,
}) => {
  // Someone with a portfolio of three x-folders holding notes, and a note with a reply.
  const other = await otherPerson(playwright);
  for (const name of ["Bridge design", "Rust course", "Trip notes"]) {
    const made = await other.req.post("/v1/folders", {
      data: { type: "Project", name: `${name} ${uniq("f")}`, descr: "", link: "" },
    });
    const folder = await made.json();
    await other.req.post("/v1/notes", { data: { label: "idea", content: `<p>${name}</p>`, folders: [folder.id] } });
  }
  const asked = await other.req.post("/v1/notes", {
    data: { label: "idea", content: "<p>What should I read next?</p>" },
  });
  const { note } = await asked.json();
  await other.req.post("/v1/replies", { data: { parent: -note.id, content: "<p>Try the Rust book.</p>" } });
  await other.req.dispose();

  // A visitor's "/" may be the edge cache's copy from before the data above (30 s): an address of
  // its own is rendered now.
  await page.goto(`/?visit=${uniq("v")}`);
  // Joining leads: Sign up is the primary button, Log in the secondary one, in the page and beside it.
  const welcome = page.locator(".welcome");
  await expect(welcome.getByRole("link", { name: "Sign up" })).toHaveClass(/primary/);
  await expect(welcome.getByRole("link", { name: "Log in" })).not.toHaveClass(/primary/);
  const side = page.getByRole("complementary");
  await expect(side.getByRole("link").first()).toHaveText("Sign up");
  await expect(side.getByRole("link", { name: "Sign up" })).toHaveClass(/primary/);
  await expect(side.getByRole("link", { name: "Log in" })).toBeVisible();
  // Plain words about the fediverse.
  await expect(welcome.getByText(/can be followed from Mastodon/)).toBeVisible();
  // A real portfolio: a person, their x-folders with counts, and the way to all of it.
  const portfolio = welcome.getByRole("region", { name: "A portfolio on NoteX" });
  await expect(portfolio.getByRole("link", { name: /\d+ notes?$/ })).toHaveCount(await portfolio.locator("li").count());
  // Whose it is depends on who else the suite made (the most followed with two x-folders or more).
  expect(await portfolio.locator("li").count()).toBeGreaterThanOrEqual(2);
  await expect(portfolio.getByRole("link", { name: /^See .+'s portfolio$/ })).toBeVisible();
  // A real thread: a note, its first replies, and the way to the whole conversation.
  const thread = welcome.getByRole("region", { name: "A conversation on NoteX" });
  await expect(thread.locator(".showcase-replies li").first()).toBeVisible();
  await expect(thread.getByRole("link", { name: /^Read the thread · \d+ repl(y|ies)$/ })).toBeVisible();
  // What needs an account is not offered to a visitor at all.
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const entry of ["My Notes", "My Experience", "Notifications", "Bookmarks", "Settings"])
    await expect(nav.getByRole("link", { name: entry })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Search" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Take a note" })).toHaveCount(0);
  await expect(page.getByRole("banner").getByRole("link", { name: "Notifications" })).toHaveCount(0);
});

test("on a phone, the bottom bar offers Sign up as well as Log in", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const bar = page.getByRole("navigation", { name: "Mobile" });
  await expect(bar.getByRole("link", { name: "Sign up" })).toBeVisible();
  await expect(bar.getByRole("link", { name: "Sign up" })).toHaveClass(/primary/);
  await expect(bar.getByRole("link", { name: "Log in" })).toBeVisible();
  await bar.getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("dialog", { name: "Sign up" })).toBeVisible();
});
