// A newcomer says what they care about and gets a dozen people to follow, grouped by it, each with
// a face, a name, a bio and a Follow button that works where it is (a plain form without JavaScript).
import { expect, otherPerson, signedIn, test, uniq } from "./fixtures";

const TOPICS = [
  { label: "a.i.", topic: "AI", bio: "Teaching machines to read contracts." },
  { label: "research", topic: "Research", bio: "Field notes from a soil lab." },
];

test("a new person picks topics, sees a dozen people grouped by them, and follows one in place", async ({
  page,
  js,
  playwright,
}) => {
  test.setTimeout(120_000);
  // Seven people post under each topic's x-label, each with a bio.
  const people: { username: string; bio: string }[] = [];
  const run = uniq("r");
  for (const { label, bio } of TOPICS)
    for (let i = 0; i < 7; i++) {
      const o = await otherPerson(playwright);
      const mine = `${bio} (${run}-${i + 1})`;
      await o.req.patch("/v1/users", { data: { name: `Writer ${label} ${i + 1}`, descr: mine } });
      await o.req.post("/v1/notes", { data: { label, content: `<p>On ${label}</p>` } });
      await o.req.dispose();
      people.push({ username: o.username, bio: mine });
    }
  await signedIn(page, "Nadia Newcomer");
  await page.goto("/");
  // Get started's step leads to the welcome page, not back to Home.
  await page
    .getByRole("region", { name: "Get started" })
    .getByRole("link", { name: /Follow three people/ })
    .click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole("heading", { name: "Welcome to NoteX, Nadia" })).toBeVisible();
  const picker = page.getByRole("group", { name: "What do you care about?" });
  for (const { topic } of TOPICS) await picker.getByRole("checkbox", { name: new RegExp(`^${topic}`) }).check();
  await page.getByRole("button", { name: "Show people to follow" }).click();

  const suggestions = page.getByRole("region", { name: "People to follow" });
  for (const { topic } of TOPICS)
    await expect(suggestions.getByRole("region", { name: topic, exact: true })).toBeVisible();
  expect(await suggestions.getByRole("listitem").count()).toBeGreaterThanOrEqual(12);
  await expect(suggestions.getByRole("button", { name: "Follow" }).first()).toBeVisible();
  // The topics are kept: the page read again has them checked.
  await page.reload();
  await expect(picker.getByRole("checkbox", { name: /^AI/ })).toBeChecked();
  await expect(page.getByRole("button", { name: "Update suggestions" })).toBeVisible();

  // One of this test's AI writers, shown under AI with their bio.
  const ai = suggestions.getByRole("region", { name: "AI", exact: true });
  const card = ai
    .getByRole("listitem")
    .filter({ hasText: `Teaching machines to read contracts. (${run}-` })
    .first();
  await expect(card).toBeVisible();
  const who = ((await card.getByRole("link").first().getAttribute("href")) ?? "").slice(1);
  expect(people.map((p) => p.username)).toContain(who);
  await card.getByRole("button", { name: "Follow" }).click();
  if (js) {
    // In place: the card stays and says Following.
    await expect(card.getByText("Following")).toBeVisible();
    await expect(page).toHaveURL(/\/welcome(#people)?$/);
  } else {
    // Back to the same place on the page; the person is followed, so no longer suggested.
    await expect(page).toHaveURL(/\/welcome#topic-ai$/);
    await expect(suggestions.locator(`a[href="/${who}"]`)).toHaveCount(0);
  }
  await expect(suggestions.getByText("You follow 1 person.")).toBeVisible();
  await expect.poll(async () => (await (await page.request.get("/v1/me")).json()).stats.following).toBe(1);
});
