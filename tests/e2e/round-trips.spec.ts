import type { APIRequestContext } from "@playwright/test";
import { tripsOf } from "../../worker/db/meter";
import { expect, signedIn, test, uniq } from "./fixtures";

// Issue 9: a page's loader needs at most two D1 round trips. The worker counts every statement and
// batch that crosses to D1 and answers the count in Server-Timing (worker/db/meter.ts), so each
// page's document request is held to its budget here, for a visitor and for a signed-in person.
// A document runs the root loader and the route loader; a visitor's root loader calls nothing.

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
    if (n > 2) over.push(`visitor ${path}: ${n}`);
  }
  await visitor.close();
  // Signed in: the session is resolved once for the page (1), the root loader reads the user (1),
  // the route loader at most two.
  for (const path of [...pages("me"), ...signedInOnly]) {
    const n = await pageTrips(req, path);
    if (n > 4) over.push(`signed in ${path}: ${n}`);
  }
  expect(over).toEqual([]);
});
