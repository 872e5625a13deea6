import type { Locator } from "@playwright/test";
import { expect, otherPerson, signedIn, test } from "./fixtures";

// Phones: every small control has 44×44 px to land on, the notification badge and "Following" read
// in both themes (WCAG AA), and long names wrap instead of running under buttons or off the screen.

const PHONE = { width: 390, height: 844 };

/** The area a tap on `el` lands on: how far from its centre the point still hits it (or its inside). */
async function tapArea(el: Locator) {
  // In the middle of the screen: at an edge the phone's bottom bar would be what a tap lands on.
  await el.evaluate((node) => node.scrollIntoView({ block: "center" }));
  return el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    const hits = (x: number, y: number) => {
      const h = document.elementFromPoint(x, y);
      return !!h && (h === node || node.contains(h));
    };
    const reach = (dx: number, dy: number) => {
      let n = 0;
      while (n < 60 && hits(cx + dx * (n + 1), cy + dy * (n + 1))) n++;
      return n;
    };
    return { w: reach(-1, 0) + reach(1, 0) + 1, h: reach(0, -1) + reach(0, 1) + 1 };
  });
}

test("on a phone, timestamps, chips, counts, Change, Settings' and CV links and menu entries take a 44×44 tap", async ({
  page,
  js,
}) => {
  await page.setViewportSize(PHONE);
  const me = await signedIn(page, "Tap Person");
  const folder = await (
    await page.request.post("/v1/folders", { data: { type: "Skill", name: "Knitting", descr: "", link: "" } })
  ).json();
  const made = await page.request.post("/v1/notes", {
    data: { label: "idea", content: "<p>Tap targets</p>", folders: [folder.id] },
  });
  const { note } = await made.json();
  await page.goto(`/${me.username}/note/${note.id}`);
  const card = page.locator("article.note").first();
  const targets = [card.locator(".note-head .time"), card.locator("a.label"), card.locator(".folder-tags a").first()];
  await page.goto(`/${me.username}?t=notes`);
  const profile = [page.locator(".stats a").first()];
  for (const t of [...profile]) {
    const a = await tapArea(t);
    expect(a.w, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
    expect(a.h, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
  }
  await page.goto(`/${me.username}/note/${note.id}`);
  for (const t of targets) {
    const a = await tapArea(t);
    expect(a.w, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
    expect(a.h, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
  }
  await page.goto("/settings");
  const change = page.getByRole("link", { name: "Change username" });
  expect((await change.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
  // Settings' lists of links and the portfolio's CV links: text links, each with a 44×44 tap.
  const links = [
    page.getByRole("link", { name: "Blocked accounts" }),
    page.getByRole("link", { name: "Muted accounts" }),
    page.getByRole("link", { name: "Blocked servers" }),
  ];
  for (const t of links) {
    const a = await tapArea(t);
    expect(a.w, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
    expect(a.h, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
  }
  await page.goto(`/${me.username}`);
  for (const t of [page.getByRole("link", { name: "Printable CV" }), page.getByRole("link", { name: "JSON Resume" })]) {
    const a = await tapArea(t);
    expect(a.w, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
    expect(a.h, (await t.textContent()) ?? "").toBeGreaterThanOrEqual(44);
  }
  if (js) {
    await page.goto(`/${me.username}/note/${note.id}`);
    await page.getByLabel("Note menu", { exact: true }).first().click();
    const entry = page.locator("details.menu[open] li > :is(a, button)").first();
    expect((await entry.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
  }
});

/** WCAG contrast ratio of two CSS colours (rgb()/rgba() as computed). */
function contrast(a: string, b: string) {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

for (const scheme of ["light", "dark"] as const) {
  test(`the reply badge on a notification and "Following" meet AA contrast (${scheme})`, async ({
    page,
    playwright,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const me = await signedIn(page, "Badge Person");
    const note = await (await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>Hi</p>" } })).json();
    const other = await otherPerson(playwright);
    await other.req.post("/v1/replies", { data: { parent: -note.note.id, content: "<p>Hello</p>" } });
    await other.req.post(`/v1/follows/${(await (await page.request.get("/v1/me")).json()).id}`);
    await other.req.dispose();
    await page.request.post(`/v1/follows/${(await (await page.request.get(`/v1/users/${other.username}`)).json()).id}`);
    await page.goto("/notifications");
    const badge = page.locator(".noti-icon.reply").first();
    const colours = await badge.evaluate((b) => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]);
    expect(contrast(colours[0], colours[1])).toBeGreaterThanOrEqual(4.5);
    const state = page.locator(".noti-state").first();
    await expect(state).toHaveText("Following");
    const fg = await state.evaluate((s) => getComputedStyle(s).color);
    // What is drawn behind it: the first ancestor with an opaque background.
    const bg = await state.evaluate((s) => {
      for (let el: Element | null = s; el; el = el.parentElement) {
        const c = getComputedStyle(el).backgroundColor;
        // An opaque one (a tint over it, like an unread row's 8 %, barely moves it).
        if (c.startsWith("rgb(")) return c;
      }
      return "rgb(255, 255, 255)";
    });
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
    expect(me.username).toBeTruthy();
  });
}

test("long names wrap on a phone: drawer, profile header, folder rows", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  const long = "Maximiliana Wolfeschlegelsteinhausenbergerdorff";
  const me = await signedIn(page, long.slice(0, 34));
  await page.request.post("/v1/folders", {
    data: { type: "Project", name: `The ${"Extraordinarily".repeat(6)} long project name`, descr: "", link: "" },
  });
  await page.goto(`/${me.username}`);
  const fits = async (sel: string) => {
    const loc = page.locator(sel).first();
    const box = await loc.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0), sel).toBeLessThanOrEqual(320);
  };
  await fits(".profile-head h1");
  await fits(".folder-row");
  await fits(".folder-row > :last-child");
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scroll).toBeLessThanOrEqual(320);
  await page.goto(`/${me.username}?sidebar=1`);
  const name = page.locator(".left.open .user-card strong");
  const close = page.locator(".left.open .close-sidebar");
  const n = await name.boundingBox();
  const c = await close.boundingBox();
  expect((n?.x ?? 0) + (n?.width ?? 0)).toBeLessThanOrEqual(c?.x ?? 0);
});
