import { HOSTILE_REDIRECTS } from "../redirects";
import { expect, FORM_ACTIONS, signedIn, test } from "./fixtures";

// Issue 20 through the pages: every form action keeps its redirect on the site (§2), error
// parameters show only messages the site wrote (§6), and "%" in labels and paths is no 500 (§3).

const ACTIONS = FORM_ACTIONS;
/** The intents whose no-JS answer is a redirect built from redirectTo (an error path included). */
const INTENTS = ["delete", "edit", "", "quote", "login"];

test("no action redirects off the site, whatever redirectTo says", async ({ page, js }) => {
  test.skip(js, "a browser without JavaScript posts these forms; once is enough");
  test.setTimeout(180_000);
  await signedIn(page);
  const base = new URL(test.info().project.use.baseURL as string);
  const failures: string[] = [];
  for (const action of ACTIONS) {
    for (const [i, redirectTo] of HOSTILE_REDIRECTS.entries()) {
      const form = { intent: INTENTS[i % INTENTS.length], id: "999999999", parent: "-999999999", redirectTo };
      const res = await page.request.post(action, { form, maxRedirects: 0 });
      const where = res.headers().location;
      if (res.status() >= 500) failures.push(`${action} ${JSON.stringify(redirectTo)} → ${res.status()}`);
      if (where === undefined) continue;
      // Where a browser would go with this Location header.
      const lands = new URL(where, `${base.origin}/some/page`);
      if (lands.origin !== base.origin || /^\/[/\\]/.test(where)) {
        failures.push(`${action} ${JSON.stringify(redirectTo)} → ${where}`);
      }
    }
  }
  expect(failures).toEqual([]);
});

test("error parameters show only the site's own messages", async ({ page, js }) => {
  test.skip(js, "server-rendered text; once is enough");
  const me = await signedIn(page);
  const folder = await (
    await page.request.post("/v1/folders", { data: { type: "Company", name: "Acme Corp", descr: "", link: "" } })
  ).json();
  const note = await (await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>hi</p>" } })).json();
  const lie = "Your account is suspended. Call +1 555 0100";
  const pages = [
    `/${me.username}/x/${folder.slug}?folder_error=${encodeURIComponent(lie)}`,
    `/${me.username}/note/${note.note.id}?reply_error=${encodeURIComponent(lie)}`,
    `/${me.username}?dialog=edit-profile&profile_error=${encodeURIComponent(`name:${lie}`)}`,
    `/${me.username}?dialog=edit-profile&profile_error=${encodeURIComponent(JSON.stringify({ name: lie }))}`,
    `/${me.username}?dialog=edit-profile&profile_error=%7B`,
  ];
  for (const path of pages) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await expect(page.getByText(lie)).toHaveCount(0);
  }
  // A known code shows its message.
  await page.goto(`/${me.username}/x/${folder.slug}?folder_error=folder_not_empty`);
  await expect(page.getByRole("alert")).toContainText("You have to remove all notes of this folder");
  await page.goto(`/${me.username}?dialog=edit-profile&profile_error=name:name_required`);
  await expect(page.getByText("Name is required")).toBeVisible();
});

test("a label with % works on its note, profile and label pages", async ({ page }) => {
  const me = await signedIn(page);
  const res = await page.request.post("/v1/notes", { data: { label: "100% done", content: "<p>shipped it</p>" } });
  expect(res.status()).toBe(201);
  const { note } = await res.json();
  await page.goto(`/${me.username}/note/${note.id}`);
  await expect(page.getByRole("link", { name: "100% done" }).first()).toBeVisible();
  for (const path of [`/xlabel/${encodeURIComponent("100% done")}`, `/${me.username}?t=notes&l=100%25%20done`]) {
    const page2 = await page.goto(path);
    expect(page2?.status(), path).toBe(200);
    await expect(page.getByText("shipped it").first(), path).toBeVisible();
  }
});

test("broken escapes in page paths are not a 500", async ({ page, js }) => {
  test.skip(js, "status codes; once is enough");
  for (const path of ["/xlabel/%", "/xlabel/%25", "/tag/%", "/%", "/%25/note/1", "/img/%", "/x/%E0%A4%A"]) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBeLessThan(500);
  }
});
