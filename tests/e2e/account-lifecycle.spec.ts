// Issue 17 in the browser, with and without JavaScript: forgot → outbox → reset → log in, the
// Settings sections (sessions, export, delete) and screenshots of every new page and dialog.
import { mkdirSync } from "node:fs";
import { expect, loginViaForm, signedIn, test } from "./fixtures";

const shots = process.env.SHOTS_DIR;
if (shots) mkdirSync(shots, { recursive: true });
const shoot = async (page: import("@playwright/test").Page, name: string, js: boolean) => {
  if (!shots || !js) return;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${shots}/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${shots}/${name}-mobile.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
};

test("forgot password → outbox link → reset → log in with the new password", async ({ page, js }) => {
  // Eleven page loads: more than the default budget on a loaded machine.
  test.slow();
  const a = await signedIn(page);
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL("/forgot");
  await page.getByLabel("Email").fill("not-an-address");
  await page.getByRole("button", { name: "Send link" }).click();
  await expect(page.getByText("email is not valid")).toBeVisible();
  await page.getByLabel("Email").fill(a.email);
  await page.getByRole("button", { name: "Send link" }).click();
  await expect(page.getByText("If an account uses that address")).toBeVisible();
  await shoot(page, "forgot-sent", js);

  // The outbox page (local only) shows the message; its link opens the reset page.
  await expect(async () => {
    await page.goto(`/dev/outbox?to=${encodeURIComponent(a.email)}`);
    await expect(page.getByText("Reset your NoteX password")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await shoot(page, "outbox", js);
  await page
    .locator(".mail", { hasText: "Reset your NoteX password" })
    .getByRole("link", { name: /\/reset\?token=/ })
    .click();
  await expect(page).toHaveURL(/\/reset\?token=/);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password").fill("newpass123");
  await page.getByLabel("Confirm password").fill("newpass124");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("password and confirm password does not match")).toBeVisible();
  await shoot(page, "reset", js);
  await page.getByLabel("New password").fill("newpass123");
  await page.getByLabel("Confirm password").fill("newpass123");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page).toHaveURL("/login?reset=1");
  await expect(page.getByText("Your password was changed")).toBeVisible();

  // The old password is gone; the link does not work twice.
  await page.getByLabel("Username").fill(a.username);
  await page.getByLabel("Password", { exact: true }).fill(a.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText("Username or password is incorrect.")).toBeVisible();
  await loginViaForm(page, { username: a.username, password: "newpass123" });
  await expect(page.getByRole("navigation", { name: "Main" }).getByText(`@${a.username}`)).toBeVisible();
});

test("a used reset link says so and offers a new one", async ({ page }) => {
  await page.goto("/reset?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  await page.getByLabel("New password").fill("newpass123");
  await page.getByLabel("Confirm password").fill("newpass123");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("This link is not valid or has already been used.")).toBeVisible();
  await page.getByRole("link", { name: "Send me a new link" }).click();
  await expect(page).toHaveURL("/forgot");
});

test("the confirmation link from sign-up confirms the address; Settings shows it", async ({ page, js }) => {
  const a = await signedIn(page);
  await page.goto("/settings");
  await expect(page.getByText("Not confirmed")).toBeVisible();
  await shoot(page, "settings", js);
  let text = "";
  await expect
    .poll(async () => {
      const res = await page.request.get(`/v1/dev/outbox?to=${encodeURIComponent(a.email)}`);
      const found = ((await res.json()).messages as { text: string }[]).find((m) => m.text.includes("/confirm?token="));
      text = found?.text ?? "";
      return text;
    })
    .toContain("/confirm?token=");
  const link = new URL(text.match(/https?:\/\/\S+\/confirm\?token=[\w-]+/)![0]);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page).toHaveURL("/confirm?result=confirmed");
  await expect(page.getByRole("heading", { name: "Your email is confirmed" })).toBeVisible();
  await shoot(page, "confirmed", js);
  await page.goto("/settings");
  await expect(page.getByText("Confirmed", { exact: true })).toBeVisible();
});

test("Settings lists sessions and signs out another device at once", async ({ page, js, browser }) => {
  const a = await signedIn(page);
  const other = await browser.newContext({
    javaScriptEnabled: js,
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  });
  const phone = await other.newPage();
  await loginViaForm(phone, a);
  await page.goto("/settings");
  const sessions = page.getByRole("region", { name: "Where you are signed in" });
  await expect(sessions.getByText("This device")).toBeVisible();
  await expect(sessions.getByText("Safari on iPhone")).toBeVisible();
  await shoot(page, "settings-sessions", js);
  await sessions.getByRole("button", { name: "Sign out Safari on iPhone" }).click();
  await expect(sessions.getByText("Safari on iPhone")).toHaveCount(0);
  await phone.goto("/settings");
  await expect(phone).toHaveURL(/\/login/);
  await other.close();
});

test("download my data, then delete the account: login fails and the profile is gone", async ({ page, js }) => {
  const a = await signedIn(page);
  await page.request.post("/v1/notes", { data: { label: "idea", content: "<p>keep me</p>" } });
  await page.goto("/settings");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^notex-.+\.zip$/);
  const bytes = await download.createReadStream().then(
    (s) =>
      new Promise<Buffer>((resolve) => {
        const parts: Buffer[] = [];
        s.on("data", (d: Buffer) => parts.push(d));
        s.on("end", () => resolve(Buffer.concat(parts)));
      }),
  );
  expect(bytes.subarray(0, 2).toString()).toBe("PK");

  await page.getByRole("link", { name: "Delete account…" }).click();
  const dlg = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dlg.getByText("1 note, with their replies")).toBeVisible();
  await shoot(page, "delete-dialog", js);
  await dlg.getByLabel("Your password").fill("wrong1234");
  await dlg.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("The password is not correct.")).toBeVisible();
  await page.getByRole("dialog", { name: "Delete your account?" }).getByLabel("Your password").fill(a.password);
  await page
    .getByRole("dialog", { name: "Delete your account?" })
    .getByRole("button", { name: "Delete my account" })
    .click();
  await expect(page).toHaveURL("/?deleted=1");
  // A page says it is done.
  await expect(
    page.getByRole("status").filter({ hasText: "Your account has been deleted and you are signed out everywhere." }),
  ).toBeVisible();
  await expect(page.getByRole("complementary").getByRole("link", { name: "Log in" })).toBeVisible();
  expect((await page.request.get(`/v1/users/${a.username}`)).status()).toBe(404);
  const login = await page.request.post("/v1/login", { data: { username: a.username, password: a.password } });
  expect(login.status()).toBe(401);
});
