import { expect, signedIn, test, uniq } from "./fixtures";

const meta = (page: import("@playwright/test").Page, key: string) =>
  page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute("content");

test("note, profile and x-folder pages carry link previews, canonical URLs and their feeds", async ({ page, js }) => {
  test.skip(js, "server-rendered head: the same with or without JavaScript");
  const a = await signedIn(page, "Preview Person");
  const word = uniq("v");
  const note = await page.request.post("/v1/notes", {
    data: { label: "idea", content: `<p>Previewed ${word} with “quotes” &amp; more</p>` },
  });
  const id = (await note.json()).note.id;
  const folder = await (
    await page.request.post("/v1/folders", {
      data: { type: "Project", name: `Site ${word}`, descr: "A site.", link: "" },
    })
  ).json();

  await page.goto(`/${a.username}/note/${id}`);
  const origin = new URL(page.url()).origin;
  expect(await meta(page, "og:title")).toBe(`Preview Person: “Previewed ${word} with “quotes” & more”`);
  expect(await meta(page, "og:description")).toBe(`Previewed ${word} with “quotes” & more`);
  expect(await meta(page, "og:url")).toBe(`${origin}/${a.username}/note/${id}`);
  expect(await meta(page, "og:type")).toBe("article");
  expect(await meta(page, "twitter:card")).toBe("summary");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}/${a.username}/note/${id}`);

  await page.goto(`/${a.username}`);
  expect(await meta(page, "og:type")).toBe("profile");
  expect(await meta(page, "og:title")).toBe(`Preview Person (@${a.username})`);
  const feed = page.locator('link[rel="alternate"][type="application/rss+xml"]');
  await expect(feed).toHaveAttribute("href", `/${a.username}/rss`);
  const rss = await page.request.get(`/${a.username}/rss`);
  expect(rss.headers()["content-type"]).toContain("application/rss+xml");
  expect(await rss.text()).toContain(`${origin}/${a.username}/note/${id}`);

  await page.goto(`/${a.username}/x/${folder.slug}`);
  expect(await meta(page, "og:description")).toBe("A site.");
  await expect(feed).toHaveAttribute("href", `/${a.username}/x/${folder.slug}/rss`);
  await page.goto("/xlabel/idea");
  await expect(feed).toHaveAttribute("href", "/xlabel/idea/rss");
});
