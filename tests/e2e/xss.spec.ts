import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signedIn, test, uniq } from "./fixtures";
import { PAYLOADS } from "./xss-payloads";

// Issue 8 §3: every payload of the corpus stored through every field a person controls, then every
// page that shows them rendered in Chromium. The test fails on any dialog (a payload ran), any CSP
// violation or page error (a payload was injected and only the CSP stopped it), and any element
// or attribute that the sanitiser's allow-list should have removed.

const chunks = <T>(list: T[], size: number) =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** Writes through the API; refusals (4xx) are fine — the point is what gets stored and shown. */
async function write(request: APIRequestContext, method: "post" | "patch", path: string, data: unknown) {
  const res = await request[method](path, { data });
  expect(res.status(), `${path} ${await res.text()}`).toBeLessThan(500);
  return res.ok() ? res.json() : null;
}

const ALLOWED_IN_CONTENT = new Set("P BR STRONG B EM I U S STRIKE CODE PRE BLOCKQUOTE UL OL LI H1 H2 H3 A".split(" "));

async function inspect(page: Page) {
  return page.evaluate(
    (allowed) => {
      const bad: string[] = [];
      for (const el of Array.from(document.querySelectorAll("*"))) {
        for (const a of Array.from(el.attributes)) {
          if (/^on/i.test(a.name)) bad.push(`${el.tagName} ${a.name}`);
          if (
            ["href", "src", "action", "formaction", "data", "srcdoc", "xlink:href"].includes(a.name.toLowerCase()) &&
            /^\s*(javascript|vbscript|data):/i.test([...a.value].filter((ch) => ch.charCodeAt(0) > 32).join(""))
          ) {
            bad.push(`${el.tagName} ${a.name}=${a.value.slice(0, 40)}`);
          }
        }
      }
      for (const s of Array.from(document.querySelectorAll("script"))) if (!s.nonce) bad.push("script without nonce");
      for (const f of Array.from(document.querySelectorAll("iframe")))
        if (!f.src.startsWith("https://www.youtube-nocookie.com/embed/")) bad.push(`iframe ${f.src}`);
      for (const el of Array.from(document.querySelectorAll("object,embed,base,meta[http-equiv],link[rel=import]")))
        bad.push(el.tagName);
      for (const el of Array.from(document.querySelectorAll(".content *")))
        if (!allowed.includes(el.tagName)) bad.push(`content ${el.tagName}`);
      return bad;
    },
    [...ALLOWED_IN_CONTENT],
  );
}

test("a 275-payload XSS corpus stored through every field renders inert on every page", async ({
  page,
  browser,
  js,
}) => {
  test.skip(!js, "payloads can only run with JavaScript; the no-JS pages are the same HTML");
  test.setTimeout(240_000);
  expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);

  // The attacker stores the corpus.
  const attackerCtx = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const attacker = await attackerCtx.newPage();
  const a = await signedIn(attacker, "Mallory");
  const req = attacker.request;
  const label = `x" onfocus=alert(1)`;
  await write(req, "patch", "/v1/users", {
    name: "<img src=x onerror=alert(1)>",
    descr: PAYLOADS.join(" ").slice(0, 299),
  });
  const folder = await write(req, "post", "/v1/folders", {
    type: '"><svg onload=alert(1)>',
    name: PAYLOADS.slice(0, 8).join("").slice(0, 250),
    descr: PAYLOADS.slice(8, 20).join("").slice(0, 500),
    link: "javascript:alert(1)",
  });
  const notes: number[] = [];
  for (const [i, group] of chunks(PAYLOADS, 12).entries()) {
    const res = await write(req, "post", "/v1/notes", {
      label: i === 0 ? label : "tip",
      content: `<p>corpus ${i} #xss</p>${group.join("<br>")}`,
      folders: i === 0 && folder ? [folder.id] : [],
    });
    if (res) notes.push(res.note.id);
  }
  expect(notes.length).toBe(Math.ceil(PAYLOADS.length / 12));
  for (const video of [
    "javascript:alert(1)",
    '"><script>alert(1)</script>',
    "https://youtu.be/<svg/onload=alert(1)>",
  ]) {
    const res = await req.post("/v1/notes", { data: { label: "tip", content: "<p>video</p>", video } });
    expect(res.status()).toBe(422);
  }
  const replies: number[] = [];
  for (const group of chunks(PAYLOADS, 40)) {
    const res = await write(req, "post", "/v1/replies", {
      parent: -notes[0],
      content: `<p>reply</p>${group.join("")}`.slice(0, 4000),
    });
    if (res) replies.push(res.id);
  }
  await write(req, "post", "/v1/renotes", {
    renote_id: notes[1],
    content: `<p>quote</p>${PAYLOADS.slice(0, 30).join("")}`,
  });

  // The victim interacts so the attacker's name reaches their notifications and bookmarks.
  const v = await signedIn(page, "Victim");
  const mine = (
    await (await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>mine</p>" } })).json()
  ).note.id;
  await req.post(`/v1/likes/${mine}?t=note`);
  await req.post("/v1/replies", { data: { parent: -mine, content: PAYLOADS.slice(30, 60).join("") } });
  await req.post(`/v1/follows/${(await (await page.request.get("/v1/me")).json()).id}`);
  await page.request.post(`/v1/bookmarks/${notes[0]}?t=note`);

  const problems: string[] = [];
  page.on("dialog", async (d) => {
    problems.push(`dialog: ${d.message()}`);
    await d.dismiss();
  });
  page.on("pageerror", (e) => problems.push(`pageerror ${page.url()}: ${e.message.slice(0, 80)}`));
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text()))
      problems.push(`csp: ${m.text().slice(0, 160)}`);
  });

  const pages = [
    "/",
    `/${a.username}`,
    `/${a.username}?t=notes`,
    `/${a.username}?t=notes&l=${encodeURIComponent(label)}`,
    `/xlabel/${encodeURIComponent(label)}`,
    "/tag/xss",
    ...notes.map((id) => `/${a.username}/note/${id}`),
    ...replies.map((id) => `/${a.username}/rep/${id}`),
    ...(folder ? [`/${a.username}/x/${folder.slug}`] : []),
    "/notifications",
    "/bookmarks",
    `/${v.username}`,
  ];
  for (const path of pages) {
    // The frame's own goto: this test checks hydration itself, and records a page that never does.
    const res = await page.mainFrame().goto(path);
    expect(res?.status(), path).toBeLessThan(500);
    // A page an injected element broke never hydrates: that is a finding too, not a hang.
    await page
      .locator("html[data-ready]")
      .waitFor({ state: "attached", timeout: 10_000 })
      .catch(() => problems.push(`${path}: never hydrated`));
    // Hover and focus what is there, so handler-based payloads get their chance.
    await page.mouse.move(200, 300);
    await page.keyboard.press("Tab");
    for (const b of await inspect(page)) problems.push(`${path}: ${b}`);
  }
  await attackerCtx.close();
  expect(problems).toEqual([]);
});
