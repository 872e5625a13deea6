import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import { expect, test, uniq } from "./fixtures";

// Issue 22: screenshot baselines of the main pages, desktop and mobile, light and dark, compared on
// every `npm test` (project "visual"). The data is fixed (three seeded people, fixed text) and so
// is the browser's clock, so relative times read the same on every run. Regenerate with
//   E2E_PORT=<port> npx playwright test tests/e2e/visual.spec.ts --update-snapshots
// on Debian's Chromium, then look at the images before committing them.

const PASSWORD = "secret123";
const PEOPLE = {
  ada: { username: "adalovelace", name: "Ada Lovelace" },
  grace: { username: "gracehopper", name: "Grace Hopper" },
  charles: { username: "charlesbabbage", name: "Charles Babbage" },
} as const;
type Who = keyof typeof PEOPLE;

const LONG = Array.from(
  { length: 16 },
  (_, i) => `<p>Step ${i + 1}: the compiler reads one more line of the program and writes its machine code.</p>`,
).join("");

interface World {
  adaNote: number;
  /** The newest seeded note's time: the browser's clock stands 10.5 minutes after it. */
  base: number;
}

async function client(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { "x-test-client": uniq("v") } });
}

async function ok<T>(res: Promise<import("@playwright/test").APIResponse>): Promise<T> {
  const r = await res;
  expect(r.ok(), `${r.url()}: ${await r.text()}`).toBeTruthy();
  return (await r.json()) as T;
}

/** Signs a person up (first run on this server) or in (a later worker of the same run). */
async function as(who: Who, baseURL: string): Promise<{ api: APIRequestContext; id: number; fresh: boolean }> {
  const api = await client(baseURL);
  const p = PEOPLE[who];
  const up = await api.post("/v1/signup", {
    data: { username: p.username, password: PASSWORD, email: `${p.username}@example.com`, name: p.name },
  });
  if (up.status() !== 201) await ok(api.post("/v1/login", { data: { username: p.username, password: PASSWORD } }));
  const me = await ok<{ id: number }>(api.get("/v1/me"));
  return { api, id: me.id, fresh: up.status() === 201 };
}

/** The fixed world, made once per server: Ada's notes and folder, Grace's long note, their follows. */
async function seed(baseURL: string): Promise<World> {
  const ada = await as("ada", baseURL);
  const grace = await as("grace", baseURL);
  const charles = await as("charles", baseURL);
  if (ada.fresh) {
    const folder = await ok<{ id: number }>(
      ada.api.post("/v1/folders", {
        data: { type: "project", name: "Analytical Engine", descr: "A general-purpose computer, on paper.", link: "" },
      }),
    );
    const mine = await ok<{ note: { id: number } }>(
      ada.api.post("/v1/notes", {
        data: {
          label: "idea",
          content: "<p>The engine weaves algebraic patterns just as the loom weaves flowers and leaves. #maths</p>",
          folders: [folder.id],
        },
      }),
    );
    await ok(grace.api.post("/v1/notes", { data: { label: "how to", content: LONG } }));
    await ok(grace.api.post("/v1/notes", { data: { label: "tip", content: "<p>A ship in port is safe.</p>" } }));
    const { note } = await ok<{ note: { id: number } }>(
      charles.api.post("/v1/notes", { data: { label: "research", content: "<p>Difference engine, part two.</p>" } }),
    );
    await ok(ada.api.post(`/v1/follows/${grace.id}`));
    await ok(grace.api.post(`/v1/follows/${ada.id}`));
    await ok(grace.api.post(`/v1/follows/${charles.id}`));
    await ok(ada.api.post(`/v1/follows/${charles.id}`));
    await ok(grace.api.post(`/v1/likes/${note.id}?t=note`));
    await ok(grace.api.post("/v1/replies", { data: { parent: -note.id, content: "<p>Part three, please.</p>" } }));
    await ok(grace.api.post(`/v1/likes/${mine.note.id}?t=note`));
    await ok(
      grace.api.post("/v1/replies", { data: { parent: -mine.note.id, content: "<p>And it could compose music.</p>" } }),
    );
  }
  const notes = await ok<{ notes: { id: number; created_at: number; user: { username: string } }[] }>(
    ada.api.get(`/v1/notes?uid=${ada.id}&page=1`),
  );
  const feed = await ok<{ notes: { created_at: number }[] }>(grace.api.get(`/v1/notes?uid=${grace.id}&page=1`));
  const times = [...notes.notes, ...feed.notes].map((n) => n.created_at);
  for (const c of [ada, grace, charles]) await c.api.dispose();
  return { adaNote: notes.notes[0].id, base: Math.max(...times) };
}

let world: World;
test.beforeAll(async ({ baseURL }) => {
  world = await seed(baseURL ?? "");
});

/**
 * Each person signs in once per worker and every page of theirs reuses that session: a sign-in
 * per screenshot met the sign-in limit (429) once the suite ran fast enough.
 */
const sessions = new Map<Who, ReturnType<APIRequestContext["storageState"]>>();
function sessionOf(who: Who, baseURL: string) {
  let state = sessions.get(who);
  if (!state) {
    state = (async () => {
      const api = await client(baseURL);
      await ok(api.post("/v1/login", { data: { username: PEOPLE[who].username, password: PASSWORD } }));
      return api.storageState();
    })();
    sessions.set(who, state);
  }
  return state;
}

const DEVICES = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
};

const PAGES: { name: string; who: Who | null; path: (w: World) => string }[] = [
  { name: "home", who: "ada", path: () => "/?tab=following" },
  { name: "note", who: "ada", path: (w) => `/adalovelace/note/${w.adaNote}` },
  { name: "profile", who: "ada", path: () => "/adalovelace" },
  { name: "x-folder", who: "ada", path: () => "/adalovelace/x/analytical-engine" },
  { name: "notifications", who: "charles", path: () => "/notifications" },
  { name: "settings", who: "ada", path: () => "/settings" },
  { name: "login", who: null, path: () => "/login" },
  { name: "search", who: "ada", path: () => "/search?q=algebraic" },
];

for (const [device, viewport] of Object.entries(DEVICES)) {
  for (const theme of ["light", "dark"]) {
    for (const p of PAGES) {
      test(`${p.name} ${device} ${theme}`, async ({ page, baseURL }) => {
        await page.setViewportSize(viewport);
        await page.context().addCookies([{ name: "theme", value: theme, url: baseURL ?? "" }]);
        if (p.who) await page.context().addCookies((await sessionOf(p.who, baseURL ?? "")).cookies);
        // Every relative time reads "10m" (the seeded rows are seconds apart).
        await page.clock.setFixedTime(world.base + 10.5 * 60_000);
        // Opening the list resets its badge: open it once so every run shows the same (zero) badge.
        if (p.name === "notifications") await page.goto(p.path(world));
        await page.goto(p.path(world));
        await page.evaluate(() => document.fonts.ready);
        // The sessions list grows with every sign-in of the suite and its times follow the server
        // clock: hidden, so the rest of Settings is compared the same on every run.
        if (p.name === "settings") await page.addStyleTag({ content: ".sessions { display: none }" });
        // Suggested people are whoever the rest of the suite signed up (first-steps.spec holds them).
        if (p.name === "home") await page.addStyleTag({ content: ".people-to-follow { display: none }" });
        await expect(page).toHaveScreenshot(`${p.name}-${device}-${theme}.png`, {
          // Calendar dates (a folder's noted-at) change with the day the suite runs; the whole
          // handle names the host the suite runs on (its port).
          mask: [page.locator(".folder-row time"), page.locator(".fedi-handle")],
        });
      });
    }
  }
}
