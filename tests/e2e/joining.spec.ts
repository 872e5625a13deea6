// A newcomer joining: sign-up says its rules first, checks the username as it is typed, shows each
// error once with the focus on the first; a visitor's first page says what NoteX is.
import { expect, otherPerson, signedIn, test, uniq } from "./fixtures";

test("sign-up states the rules first, checks the username as you type, each error once, focus on the first", async ({
  page,
  js,
  playwright,
}) => {
  const taken = await otherPerson(playwright);
  await taken.req.dispose();
  await page.goto("/login?dialog=signup");
  const email = page.getByLabel("Email");
  await email.fill(`${uniq("n")}@example.com`);
  await page.getByLabel("Name").fill("New Person");
  await page.getByRole("button", { name: "Next" }).click();
  const username = page.getByLabel("Username");
  await expect(username).toBeFocused();
  // The rules are there before anything was typed.
  await expect(page.getByText("5–34 characters: a letter (a-z) first, then letters, digits or _")).toBeVisible();
  await expect(page.getByText("6–44 characters, with at least one letter and one number")).toBeVisible();
  const taken409 = page.getByText("Username already exists. Please choose another.");
  if (js) {
    await username.fill(`${uniq("free")}`);
    await expect(page.getByText(/ is available$/)).toBeVisible();
    await username.fill(taken.username);
    await expect(taken409).toBeVisible();
  } else await username.fill(taken.username);
  await page.getByLabel("Password", { exact: true }).fill("secret123");
  await page.getByLabel("Confirm password").fill("secret123");
  await page.getByRole("button", { name: "Sign up" }).click();
  // Said once, beside the field, and the focus is there to fix it.
  await expect(taken409).toHaveCount(1);
  await expect(username).toBeFocused();
  // Several errors: the focus goes to the first of them.
  await username.fill(`${uniq("ok")}`);
  await page.getByLabel("Password", { exact: true }).fill("abc");
  await page.getByLabel("Confirm password").fill("abd");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("password must be at least 6 characters")).toHaveCount(1);
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
});

test("a visitor's first page says what NoteX is, with Sign up as the next step", async ({ page }) => {
  await page.goto("/");
  const welcome = page.getByRole("region", { name: "Take notes. Show what you have done." });
  await expect(welcome).toBeVisible();
  await expect(welcome).toContainText("x-labels");
  await expect(welcome).toContainText("x-folders");
  await welcome.getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("dialog", { name: "Sign up" })).toBeVisible();
  await expect(page.getByLabel("Email")).toBeVisible();
});

test("after sign-up: a checklist of first steps, a banner until the email is confirmed, empty states that lead on", async ({
  page,
}) => {
  const a = await signedIn(page, "Fresh Person");
  await page.goto("/");
  await expect(
    page.getByRole("status").filter({ hasText: `Confirm your email: we sent a link to ${a.email}` }),
  ).toBeVisible();
  const steps = page.getByRole("region", { name: "Get started" });
  await expect(steps.getByRole("link", { name: "Add a photo and a bio" })).toBeVisible();
  await expect(steps.getByRole("link", { name: /Create your first x-folder/ })).toBeVisible();
  await expect(steps.getByRole("link", { name: /Follow three people/ })).toBeVisible();
  // An empty profile offers the first folder; a done step is marked done.
  await page.goto(`/${a.username}`);
  await page.getByRole("link", { name: "Create your first x-folder" }).click();
  await expect(page.getByRole("dialog", { name: "New x-folder" })).toBeVisible();
  await page.request.post("/v1/folders", { data: { type: "project", name: "First one", descr: "", link: "" } });
  await page.goto("/");
  await expect(steps.getByText(/Create your first x-folder.*\(done\)/)).toBeVisible();
  await page.goto("/?tab=following");
  await expect(page.getByText(/Follow people and their notes show here/)).toBeVisible();
});
