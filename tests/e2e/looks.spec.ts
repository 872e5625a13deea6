import type { Page } from "@playwright/test";
import { expect, signedIn, test } from "./fixtures";

// Issue 22: a layout that holds at every width, and UI chrome drawn only with the icon set.

/** A signed-in author with a note and an x-folder; returns the paths of the pages under test. */
async function world(page: Page) {
  const me = await signedIn(page, "Layout Tester");
  const note = await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Layout check</p>" } });
  expect(note.status(), await note.text()).toBe(201);
  const folder = await page.request.post("/v1/folders", {
    data: { type: "project", name: "Engine", descr: "", link: "" },
  });
  expect(folder.status(), await folder.text()).toBe(201);
  const { id } = ((await note.json()) as { note: { id: number } }).note;
  const { slug } = (await folder.json()) as { slug: string };
  return {
    home: "/",
    note: `/${me.username}/note/${id}`,
    profile: `/${me.username}`,
    folder: `/${me.username}/x/${slug}`,
    notifications: "/notifications",
    settings: "/settings",
  };
}

const WIDTHS = [
  // width: which parts of the shell show (spec 2 Layout)
  { width: 320, left: false, right: false, bottom: true },
  { width: 768, left: true, right: false, bottom: false },
  { width: 1024, left: true, right: false, bottom: false },
  { width: 1440, left: true, right: true, bottom: false },
];

test("the shell holds at 320, 768, 1024 and 1440 px: one top bar height, the spec's bars, no sideways scroll", async ({
  page,
  js,
}) => {
  test.skip(!js, "layout is CSS; one project is enough");
  test.setTimeout(120_000);
  const paths = await world(page);
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: 800 });
    const heights = new Set<number>();
    for (const [name, path] of Object.entries({ ...paths, login: "/login" })) {
      if (name === "login") await page.context().clearCookies();
      await page.goto(path);
      const at = `${name} at ${w.width}px`;
      const box = await page.locator(".topbar").boundingBox();
      expect(box, at).not.toBeNull();
      heights.add(Math.round(box?.height ?? 0));
      expect(box?.height ?? 0, at).toBeLessThanOrEqual(64);
      const { scroll, client } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(scroll, `${at}: no horizontal scroll`).toBeLessThanOrEqual(client);
      await expect(page.locator("nav.left"), at).toBeVisible({ visible: w.left });
      await expect(page.locator("aside.right"), at).toBeVisible({ visible: w.right });
      await expect(page.locator("nav.bottombar"), at).toBeVisible({ visible: w.bottom });
    }
    expect([...heights], `one top bar height at ${w.width}px`).toHaveLength(1);
    await signedIn(page, "Layout Tester");
  }
});

/** Pictographs, symbols and arrows: what the chrome must draw with the icon set instead. */
const NOT_ICON_SET =
  /(?=\P{ASCII})[\p{Extended_Pictographic}\p{So}\p{Sm}\u2022\u2190-\u21ff\u2300-\u23ff\u25a0-\u27bf\uff0b]/gu;
const CHROME = [
  ".topbar",
  "nav.left",
  "aside.right",
  "nav.bottombar",
  ".note-foot",
  ".reply-actions",
  ".renoted-by",
  ".menu",
  ".dialog",
  ".field-row",
  ".tabs",
].join(",");

async function chromeOf(page: Page) {
  return page.evaluate((sel) => {
    const els = Array.from(document.querySelectorAll<HTMLElement>(sel));
    // Only ASCII symbols (+ < > = |) may stand as text; every drawn icon is a lucide or brand SVG.
    const text = els.map((e) => e.textContent ?? "").join("\n");
    const svgs = els.flatMap((e) => Array.from(e.querySelectorAll("svg")));
    const foreign = svgs.filter((s) => !s.classList.contains("lucide") && !s.closest("[data-google]")).length;
    return { text, foreign, icons: svgs.length };
  }, CHROME);
}

test("no page's chrome (bars, menus, actions, dialogs) holds an emoji or symbol character", async ({ page, js }) => {
  test.skip(!js, "the markup is the same without JavaScript");
  test.setTimeout(120_000);
  const paths = await world(page);
  const visited = { ...paths, composer: "/?dialog=note" };
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const [name, path] of Object.entries(visited)) {
      await page.goto(path);
      const { text, foreign, icons } = await chromeOf(page);
      expect(text.match(NOT_ICON_SET) ?? [], `${name} at ${size.width}px`).toEqual([]);
      expect(foreign, `${name}: SVGs outside the icon set`).toBe(0);
      expect(icons, `${name}: the chrome draws its icons`).toBeGreaterThan(2);
    }
  }
  await page.context().clearCookies();
  for (const path of ["/login", "/?dialog=login", "/?dialog=signup"]) {
    await page.goto(path);
    const { text, foreign } = await chromeOf(page);
    expect(text.match(NOT_ICON_SET) ?? [], path).toEqual([]);
    expect(foreign, path).toBe(0);
    await expect(page.locator("[data-google] svg path")).toHaveCount(4);
  }
});

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

test("a long note collapses in lists with Show more (a link without JavaScript, a toggle with it)", async ({
  page,
  js,
}) => {
  const me = await signedIn(page, "Long Writer");
  const content = Array.from({ length: 20 }, (_, i) => `<p>Paragraph ${i + 1} of a long note.</p>`).join("");
  const res = await page.request.post("/v1/notes", { data: { label: "story", content } });
  const { note } = (await res.json()) as { note: { id: number } };
  await page.goto(`/${me.username}?t=notes`);
  const card = page.getByRole("article").filter({ hasText: "Paragraph 1 of" });
  await expect(card.getByText("Paragraph 20 of a long note.")).not.toBeInViewport();
  if (!js) {
    await card.getByRole("link", { name: "Show more" }).click();
    await expect(page).toHaveURL(`/${me.username}/note/${note.id}`);
    await expect(page.getByText("Paragraph 20 of a long note.")).toBeVisible();
    return;
  }
  const more = card.getByRole("button", { name: "Show more" });
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await more.click();
  await expect(card.getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
  await card.getByText("Paragraph 20 of a long note.").scrollIntoViewIfNeeded();
  await expect(card.getByText("Paragraph 20 of a long note.")).toBeInViewport();
});

test("images open in an accessible lightbox: focus inside, arrows step, Escape closes", async ({ page, js }) => {
  test.skip(!js, "without JavaScript an image link opens the image itself");
  const me = await signedIn(page, "Photo Taker");
  const res = await page.request.post("/v1/notes", {
    data: {
      label: "idea",
      content: "<p>Two pictures</p>",
      uploads: [
        { file_size: PNG.length, file_ext: "png" },
        { file_size: PNG.length, file_ext: "png" },
      ],
    },
  });
  const { uploads } = (await res.json()) as { uploads: { put_link: string }[] };
  for (const u of uploads) {
    const put = await page.request.put(u.put_link, { data: PNG, headers: { "content-type": "image/png" } });
    expect(put.status()).toBe(200);
  }
  await page.goto(`/${me.username}?t=notes`);
  const first = page.locator(".images a").first();
  await first.click();
  const dialog = page.getByRole("dialog", { name: "Image 1 of 2" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("dialog", { name: "Image 2 of 2" })).toBeVisible();
  for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest("[role=dialog]"))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(first).toBeFocused();
});
