import type { APIRequestContext } from "@playwright/test";
import { meterFromHeader, tripsOf } from "../../worker/db/meter";
import { startPeer } from "./fedi-peer";
import { E2E_MODERATOR, expect, otherPerson, signedIn, test, uniq } from "./fixtures";

// Issue 9: a page's loader needs at most two D1 round trips (issue 19: now one, on every page). The
// worker counts every statement and batch that crosses to D1 and answers the count in Server-Timing
// (worker/db/meter.ts), so each page's document request is held to its budget here, for a visitor
// and for a signed-in person.
// The root loader reads nothing from D1; each route loader sends its reads and the signed-in
// person's record as one batch (app/lib/page.server.ts readPage, decision 018).

async function pageTrips(request: APIRequestContext, path: string) {
  const res = await request.get(path, { headers: { "cache-control": "no-cache" } });
  expect(res.status(), path).toBe(200);
  // A cached visitor page costs nothing; the budget is about the render.
  expect(res.headers()["x-page-cache"] ?? "miss", path).toBe("miss");
  return tripsOf(res.headers()["server-timing"]);
}

test("every page renders within its D1 round-trip budget, visitor and signed in", async ({ page, browser, js }) => {
  test.skip(!js, "server-side only: one project is enough");
  const me = await signedIn(page);
  const req = page.request;
  const word = uniq("t");
  const note = (await (await req.post("/v1/notes", { data: { label: "idea", content: `<p>#${word} hi</p>` } })).json())
    .note;
  const reply = await (await req.post("/v1/replies", { data: { parent: -note.id, content: "<p>First</p>" } })).json();
  const folder = await (await req.post("/v1/folders", { data: { type: "Skill", name: `Skill ${word}` } })).json();
  expect(folder.slug, JSON.stringify(folder)).toBeTruthy();

  // A fresh path per visit, so the visitor page cache never answers.
  const pages = (v: string) => [
    `/?v=${v}`,
    `/${me.username}?v=${v}`,
    `/${me.username}/note/${note.id}?v=${v}`,
    `/${me.username}/rep/${reply.id}?v=${v}`,
    `/${me.username}/x/${folder.slug}?v=${v}`,
    `/tag/${word}?v=${v}`,
    `/xlabel/idea?v=${v}`,
  ];
  const signedInOnly = ["/notifications", "/bookmarks", "/settings", "/settings/blocked", "/settings/muted"];

  const visitor = await browser.newContext();
  const over: string[] = [];
  for (const path of pages("visitor")) {
    const n = await pageTrips(visitor.request, path);
    if (n > 1) over.push(`visitor ${path}: ${n}`);
  }
  await visitor.close();
  // Signed in: the session is read from KV before the loaders run (lib/session.ts pageSession);
  // the person's record rides in the page's own batch: one round trip on every page.
  for (const path of [...pages("me"), ...signedInOnly]) {
    const n = await pageTrips(req, path);
    if (n > 1) over.push(`signed in ${path}: ${n}`);
  }
  expect(over).toEqual([]);
  // A note's page sends the note, its replies and the person's record as one batch.
  expect(await pageTrips(req, `/${me.username}/note/${note.id}?v=pair`)).toBe(1);
  // A profile asks for the person and the open tab's list by the name in its address, in one batch
  // (app/lib/profile.server.ts): one round trip on either tab, signed in and as a visitor.
  const fresh = await browser.newContext();
  for (const tab of ["", "&t=notes"]) {
    expect(await pageTrips(req, `/${me.username}?v=one${tab}`), `signed in${tab}`).toBe(1);
    expect(await pageTrips(fresh.request, `/${me.username}?v=one${tab}`), `visitor${tab}`).toBe(1);
  }
  await fresh.close();
});

// The pages that read in a second trip once (a list after the person, the mark-read after the
// notifications, the API called after the page's batch): their reads now ride in the page's one
// batch, with the person's record and an open dialog's data.
test("follow lists, unread notifications, search, moderation, apps, consent and outbox: one trip", async ({
  page,
  browser,
  js,
  playwright,
}) => {
  test.skip(!js, "server-side only: one project is enough");
  test.setTimeout(90_000);
  const me = await signedIn(page);
  const req = page.request;
  const meId = (await (await req.get("/v1/me")).json()).id;
  const other = await otherPerson(playwright);
  await other.req.post(`/v1/follows/${meId}`);
  const otherId = (await (await other.req.get("/v1/me")).json()).id;
  await req.post(`/v1/follows/${otherId}`);
  await other.req.dispose();
  const word = uniq("w");
  await req.post("/v1/notes", { data: { label: "idea", content: `<p>${word} found</p>` } });
  const app = await (
    await req.post("/api/v1/apps", {
      data: { client_name: "Trips App", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read" },
    })
  ).json();
  const consent = `/oauth/authorize?${new URLSearchParams({
    client_id: app.client_id,
    redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
    response_type: "code",
    scope: "read",
  })}`;

  // Unread notifications: read, then marked read, in the same batch; the page still shows them
  // unread, and the next visit finds nothing unread and writes nothing.
  const first = await req.get("/notifications", { headers: { "cache-control": "no-cache" } });
  expect(await first.text()).toContain('class="unread"');
  expect(meterFromHeader(first.headers()["server-timing"])).toMatchObject({ trips: 1, written: 1 });
  expect((await (await req.get("/v1/me")).json()).stats.noti).toBe(0);
  const again = await req.get("/notifications", { headers: { "cache-control": "no-cache" } });
  expect(await again.text()).not.toContain('class="unread"');
  expect(meterFromHeader(again.headers()["server-timing"])).toMatchObject({ trips: 1, written: 0 });

  const paths = (v: string) => [
    `/${me.username}?dialog=followers&v=${v}`,
    `/${me.username}?dialog=following&t=notes&v=${v}`,
    `/search?v=${v}`,
    `/search?q=${word}&v=${v}`,
    `/search?q=${word}&t=replies&v=${v}`,
    `/search?q=${word}&t=folders&v=${v}`,
    `/search?q=${me.username}&t=users&v=${v}`,
    `${consent}&v=${v}`,
    `/dev/outbox?to=${encodeURIComponent(me.email)}&v=${v}`,
  ];
  const over: string[] = [];
  // Its own address for the search budget (a visitor's is per address).
  const visitor = await browser.newContext({ extraHTTPHeaders: { "x-test-client": uniq("c") } });
  for (const path of paths(uniq("visitor"))) {
    const n = await pageTrips(visitor.request, path);
    if (n > 1) over.push(`visitor ${path}: ${n}`);
  }
  await visitor.close();
  for (const path of [...paths(uniq("me")), "/settings/apps"]) {
    const n = await pageTrips(req, path);
    if (n !== 1) over.push(`signed in ${path}: ${n}`);
  }
  // A moderator's tabs: the role is checked in the tab's own read.
  const mod = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  expect((await mod.post("/v1/login", { data: E2E_MODERATOR })).status()).toBe(200);
  for (const tab of ["open", "closed", "log", "servers"]) {
    const n = await pageTrips(mod, `/moderation?tab=${tab}`);
    if (n !== 1) over.push(`moderator /moderation?tab=${tab}: ${n}`);
  }
  await mod.dispose();
  expect(over).toEqual([]);
  // Anyone else finds no such page, in the same one trip.
  const refused = await req.get("/moderation", { headers: { "cache-control": "no-cache" } });
  expect(refused.status()).toBe(404);
  expect(tripsOf(refused.headers()["server-timing"])).toBe(1);
});

// Issue 19: what a signed-in page costs D1 (rows read, from Server-Timing: deterministic) for the
// four pages people open most. Printed for the report; held to a budget below.
test("signed-in pages: D1 rows read per page", async ({ page, js, playwright }) => {
  test.skip(!js, "server-side only: one project is enough");
  const me = await signedIn(page);
  const req = page.request;
  const meId = (await (await req.get("/v1/me")).json()).id;
  let noteId = 0;
  for (let i = 0; i < 25; i++) {
    noteId = (await (await req.post("/v1/notes", { data: { label: "idea", content: `<p>n${i} #rt</p>` } })).json()).note
      .id;
  }
  const other = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const o = uniq("o");
  await other.post("/v1/signup", {
    data: { username: o, password: "secret123", email: `${o}@example.com`, name: "O" },
  });
  await other.post(`/v1/follows/${meId}`);
  await other.post(`/v1/likes/${noteId}?t=note`);
  await other.post("/v1/replies", { data: { parent: -noteId, content: "<p>hi</p>" } });
  await req.post(`/v1/follows/${(await (await other.get("/v1/me")).json()).id}`);
  await other.dispose();
  const rows: Record<string, { trips: number; read: number; written: number }> = {};
  const paths = ["/", "/?tab=following", `/${me.username}`, `/${me.username}/note/${noteId}`, "/notifications"];
  // The second /notifications finds nothing unread: it reads the list and writes nothing.
  for (const path of [...paths, "/notifications"]) {
    const res = await req.get(path, { headers: { "cache-control": "no-cache" } });
    expect(res.status(), path).toBe(200);
    const m = meterFromHeader(res.headers()["server-timing"]);
    rows[path.replace(me.username, "{me}").replace(String(noteId), "{id}")] = {
      trips: m.trips,
      read: m.read,
      written: m.written,
    };
    // A page is its lists' budget (10 × page size + a constant) plus the session and the user.
    expect(m.read, path).toBeLessThanOrEqual(10 * 20 + 60 + 20);
  }
  console.log(`SSR rows ${JSON.stringify(rows)}`);
  expect(rows["/notifications"]).toMatchObject({ trips: 1, written: 0 });
});

test("a like runs no loader again: its answer already carries the new state (issue 15)", async ({ page, js }) => {
  test.skip(!js, "a revalidation is a JavaScript navigation; without it the action redirects");
  await signedIn(page);
  const note = (
    await (await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>${uniq("like")}</p>` } })).json()
  ).note;
  await page.goto(note.href);
  const card = page.locator("article.note").first();
  await expect(card.getByRole("button", { name: "Like 0" })).toBeVisible();
  const loaders: string[] = [];
  page.on("request", (r) => {
    // Remix's single fetch asks for loader data as GET <path>.data.
    if (r.method() === "GET" && new URL(r.url()).pathname.endsWith(".data")) loaders.push(r.url());
  });
  const liked = page.waitForResponse((r) => r.url().includes("/actions/like"));
  await card.getByRole("button", { name: "Like 0" }).click();
  await liked;
  await expect(card.getByRole("button", { name: "Unlike 1" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(loaders).toEqual([]);
  // And the state is the server's: a reload shows it.
  await page.reload();
  await expect(page.locator("article.note").first().getByRole("button", { name: "Unlike 1" })).toBeVisible();
});

// Someone on another server: the first visit finds them there (a fetch over the network, then they
// are stored); from then on their profile is read like anyone's, in one trip, with its dialogs.
test("a remote profile, once found, is one round trip, visitor and signed in", async ({ page, browser, js }) => {
  test.skip(!js, "server-side only: one project is enough");
  const peer = await startPeer(8814 + test.info().parallelIndex);
  try {
    await signedIn(page);
    const name = uniq("r").toLowerCase();
    const path = `/@${name}@${peer.host}`;
    const found = await page.request.get(path, { headers: { "cache-control": "no-cache" } });
    expect(found.status()).toBe(200);
    expect(await found.text()).toContain(`Peer ${name}`);
    const visitor = await browser.newContext({ extraHTTPHeaders: { "x-test-client": uniq("c") } });
    for (const [who, req] of [
      ["signed in", page.request],
      ["visitor", visitor.request],
    ] as const) {
      // Search by their handle finds them with the search, in the same batch.
      const search = `/search?${new URLSearchParams({ q: `@${name}@${peer.host}`, v: uniq("v") })}`;
      for (const p of [`${path}?v=${uniq("v")}`, `${path}?dialog=followers&v=${uniq("v")}`, search]) {
        expect(await pageTrips(req, p), `${who} ${p}`).toBe(1);
      }
    }
    await visitor.close();
  } finally {
    await peer.close();
  }
});
