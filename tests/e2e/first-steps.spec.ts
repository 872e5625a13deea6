// After sign-up, "follow three people" comes with real people to follow: the most-followed active
// accounts one does not follow yet, each with a Follow button (a plain form without JavaScript).
import { expect, otherPerson, signedIn, test } from "./fixtures";

test("Get started suggests people to follow; following one counts and takes them off the list", async ({
  page,
  playwright,
  js,
}) => {
  test.setTimeout(90_000);
  // Active people: each has written a note.
  for (let i = 0; i < 3; i++) {
    const o = await otherPerson(playwright);
    await o.req.post("/v1/notes", { data: { label: "idea", content: "<p>Hello</p>" } });
    await o.req.dispose();
  }
  await signedIn(page, "New Follower");
  await page.goto("/");
  const steps = page.getByRole("region", { name: "Get started" });
  const people = steps.getByRole("region", { name: "Suggested people" });
  await expect(people.getByRole("button", { name: "Follow" })).toHaveCount(3);
  const first = people.locator(".suggested").first();
  const name = (await first.locator("a").first().getAttribute("href")) ?? "";
  // The list hydrates with its own chunk, after the page: a click before that is a plain form post.
  if (js) await first.locator('input[name="_js"]').waitFor({ state: "attached" });
  await first.getByRole("button", { name: "Follow" }).click();
  await expect.poll(async () => (await (await page.request.get("/v1/me")).json()).stats.following).toBe(1);
  // With JavaScript the page stays: the person followed stays where they were, saying Following
  // (the page's new list, which leaves them out, does not take them away under the pointer).
  if (js) {
    await expect(first.getByRole("status")).toHaveText("Following");
    await expect(people.locator(`a[href="${name}"]`)).toHaveCount(1);
    await expect(people.getByRole("button", { name: "Follow" })).toHaveCount(2);
  }
  await page.goto("/");
  await expect(steps.getByText(/Follow three people.*\(1\/3\)/)).toBeVisible();
  await expect(people.locator(`a[href="${name}"]`)).toHaveCount(0);
});
