import {
  test as base,
  type Browser,
  expect,
  type Locator,
  type Page,
  type PlaywrightWorkerArgs,
  type Response,
} from "@playwright/test";

let seq = 0;
export const uniq = (p = "u") =>
  `${p}${Date.now().toString(36).slice(-5)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Every test is its own client for rate limits (the e2e server trusts x-test-client). */
export const test = base.extend<{ js: boolean }>({
  js: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  context: async ({ context }, use) => {
    await context.setExtraHTTPHeaders({ "x-test-client": uniq("c") });
    await use(context);
  },
  // With JavaScript, a page is used the way a person does: once it has hydrated (html[data-ready]),
  // since React resets the form fields it hydrates.
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      page.goto = async (url, options) => {
        const res = await goto(url, options);
        await page.locator("html[data-ready]").waitFor({ state: "attached" });
        return res;
      };
    }
    await use(page);
  },
});
export { expect };

export interface Account {
  username: string;
  password: string;
  email: string;
  name: string;
}

/** Creates an account through the API (fast) and puts its session cookie in the page's context. */
/** A moderator the e2e server writes into its fresh D1 before the worker starts (scripts/e2e-server.mjs). */
export const E2E_MODERATOR = { username: "e2e_moderator", password: "secret123" } as const;

export async function signedIn(page: Page, name = "Test Person"): Promise<Account> {
  const username = uniq("p");
  const account = { username, password: "secret123", email: `${username}@example.com`, name };
  const res = await page.request.post("/v1/signup", { data: account });
  expect(res.status(), await res.text()).toBe(201);
  return account;
}

/**
 * Types a note's text into a composer (`form`, or its dialog). With JavaScript the rich editor
 * replaces the textarea when its chunk arrives (text typed before carries over), but a fill is
 * several steps through the browser: one that spans the swap types into a field that is gone, and
 * Save stays disabled. So with JavaScript it waits for the editor first, as a person sees it.
 */
export async function fillNote(form: Locator, text: string) {
  if (test.info().project.use.javaScriptEnabled !== false) {
    await expect(form.locator("[data-editor] .editor-body")).toHaveAttribute("contenteditable", "true");
  }
  await form.getByLabel("Note", { exact: true }).fill(text);
}

/**
 * Whether a signed-in page view came as the app shell (worker/lib/shell.ts: a browser that has run
 * our script): its document is the shared frame, so a page's 404 or redirect shows in the page
 * once its data comes, not in the document's own status.
 */
export const fromShell = (res: Response | null) =>
  !!res && res.headers()["x-page-cache"] !== undefined && res.headers()["cache-control"] === "private, no-store";

/** A page that is not there: a 404 page, answered with status 404 unless it came as the app shell. */
export async function expectNotFound(page: Page, res: Response | null) {
  if (!fromShell(res)) expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Oops! The page you're looking for is not here." })).toBeVisible();
}

/** Logs in through the /login form, the way a person without the dialog would. */
export async function loginViaForm(page: Page, a: Pick<Account, "username" | "password">) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(a.username);
  await page.getByLabel("Password", { exact: true }).fill(a.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL("/");
}

/** A second person, through the API only (their own cookies and rate-limit client). */
export async function otherPerson(playwright: PlaywrightWorkerArgs["playwright"]) {
  const req = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const username = uniq("o");
  const res = await req.post("/v1/signup", {
    data: { username, password: "secret123", email: `${username}@example.com`, name: "Other Person" },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { req, username };
}

/**
 * Another person (otherPerson) who has written one note for each of `texts`, in order; answers
 * their username and the notes' ids.
 */
export async function othersNotes(playwright: PlaywrightWorkerArgs["playwright"], ...texts: string[]) {
  const other = await otherPerson(playwright);
  const ids: number[] = [];
  for (const text of texts) {
    const made = await other.req.post("/v1/notes", { data: { label: "idea", content: `<p>${text}</p>` } });
    ids.push((await made.json()).note.id);
  }
  await other.req.dispose();
  return { username: other.username, ids };
}

/** Another person in a browser context of their own (cookies, rate-limit client), with a note saying `text`. */
export async function personWithNote(browser: Browser, name: string, text: string) {
  const baseURL = test.info().project.use.baseURL as string;
  const ctx = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-test-client": uniq("c") } });
  const page = await ctx.newPage();
  const account = await signedIn(page, name);
  const { note } = await (
    await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>${text}</p>` } })
  ).json();
  return { ctx, page, account, text, noteId: note.id as number };
}

/** A note by the signed-in person of `page`, through the API; answers its id. */
export async function postNote(page: Page, content: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await page.request.post("/v1/notes", { data: { label: "idea", content: `<p>${content}</p>`, ...extra } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).note.id;
}

/** The form actions pages post to that answer a post without JavaScript by a redirect back. */
export const FORM_ACTIONS = [
  "/actions/bookmark",
  "/actions/folder",
  "/actions/follow",
  "/actions/like",
  "/actions/note",
  "/actions/renote",
  "/actions/reply",
  "/actions/report",
  "/login",
];
