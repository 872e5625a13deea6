import { request } from "@playwright/test";
import { expect, FORM_ACTIONS, signedIn, test, uniq } from "./fixtures";

// Issue 8 §2 through the pages: hostile form posts, as a browser without JavaScript would send
// them, to every form action. None may answer 5xx, none may redirect off the site, and the
// signed-in person's account (username, email, password) is intact afterwards.

const ACTIONS = [...FORM_ACTIONS, "/actions/profile", "/settings"];
const FIELDS = [
  "intent",
  "id",
  "t",
  "parent",
  "content",
  "label",
  "custom_label",
  "text",
  "video",
  "imgs",
  "folders",
  "uid",
  "kind",
  "nid",
  "renote_id",
  "name",
  "descr",
  "type",
  "link",
  "step",
  "username",
  "password",
  "new_password",
  "confirm",
  "email",
  "upload_meta",
  "content_html",
];
const VALUES = [
  "",
  "0",
  "-1",
  "abc",
  "99999999999999999999",
  "1e308",
  "' OR 1=1 --",
  "../../etc/passwd",
  "\u0000\u202e😀\u200b",
  "<script>alert(1)</script>",
  "x".repeat(300_000),
  '{"file_size":-1}',
  "[{}]",
];
const INTENTS = [
  "",
  "save",
  "delete",
  "edit",
  "login",
  "signup",
  "signup1",
  "back",
  "username",
  "password",
  "email",
  "undo",
  "x",
];
const REDIRECTS = ["https://evil.test/", "//evil.test/", "/\\evil.test", "javascript:alert(1)"];

test("hostile form posts to every action: no 5xx, no off-site redirect, the account intact", async ({ page, js }) => {
  test.skip(js, "a browser without JavaScript posts these forms; once is enough");
  test.setTimeout(180_000);
  const me = await signedIn(page, "Form Fuzzer");
  const before = await (await page.request.get("/v1/me")).json();
  const failures: string[] = [];
  for (const action of ACTIONS) {
    for (const [i, value] of VALUES.entries()) {
      const form: Record<string, string> = Object.fromEntries(FIELDS.map((f) => [f, value]));
      form.intent = INTENTS[i % INTENTS.length];
      form.redirectTo = REDIRECTS[i % REDIRECTS.length];
      const res = await page.request.post(action, { form, maxRedirects: 0 });
      const where = res.headers().location ?? "";
      if (res.status() >= 500) failures.push(`${action} [${i}] → ${res.status()}`);
      if (where && !where.startsWith("/") && !where.startsWith("http://127.0.0.1")) {
        failures.push(`${action} [${i}] → redirect to ${where}`);
      }
      if (where.startsWith("//") || where.startsWith("/\\")) failures.push(`${action} [${i}] → redirect to ${where}`);
    }
  }
  expect(failures).toEqual([]);
  // Some hostile strings are valid text (a profile name "[{}]" is a name); what must hold is that
  // the account itself is intact: same username and email, the same password still works.
  const after = await (await page.request.get("/v1/me")).json();
  expect({ username: after.username, email: after.email }).toEqual({ username: me.username, email: before.email });
  // From a fresh client: the hostile posts above rightly spent this session's write budget.
  const fresh = await request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "x-test-client": uniq("c") },
  });
  const login = await fresh.post("/v1/login", { data: { username: me.username, password: me.password } });
  expect(login.status()).toBe(200);
  await fresh.dispose();
});
