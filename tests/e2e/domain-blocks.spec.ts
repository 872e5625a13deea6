// Settings → Blocked servers: a whole server blocked and unblocked from the page, with or without
// JavaScript; a bad domain is answered under the field and changes nothing.
import { expect, signedIn, test } from "./fixtures";

test("block a server from Settings, see it listed, and unblock it", async ({ page }) => {
  await signedIn(page, "Ada Servers");
  await page.goto("/settings");
  await page.getByRole("link", { name: "Blocked servers" }).click();
  await expect(page.getByRole("heading", { name: "Blocked servers" })).toBeVisible();
  await expect(page.getByText("You have not blocked any server.")).toBeVisible();

  await page.getByLabel("Server's domain").fill("not a domain");
  await page.getByRole("button", { name: "Block server" }).click();
  await expect(page.getByText("Please enter a server's domain.")).toBeVisible();

  await page.getByLabel("Server's domain").fill("https://Spam.Example/@someone");
  await page.getByRole("button", { name: "Block server" }).click();
  await expect(page.getByText("spam.example", { exact: true })).toBeVisible();
  await expect(page.getByText("You have not blocked any server.")).toHaveCount(0);

  await page.getByRole("button", { name: "Unblock spam.example" }).click();
  await expect(page.getByText("You have not blocked any server.")).toBeVisible();
});
