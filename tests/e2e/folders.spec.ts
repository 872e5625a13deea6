import { expect, expectNotFound, fillNote, signedIn, test } from "./fixtures";

test("build a portfolio: create a Company folder, file notes, filter, open, fail to delete, unfile, delete", async ({
  page,
}) => {
  const a = await signedIn(page, "Portfolio Owner");
  await page.goto(`/${a.username}`);
  await expect(page.getByText("No folders yet")).toBeVisible();
  await page.getByRole("link", { name: "New" }).click();
  const dlg = page.getByRole("dialog", { name: "New x-folder" });
  await expect(dlg.getByRole("link", { name: "Simple Folder" })).toBeVisible();
  await dlg.getByRole("link", { name: "Company" }).click();
  const details = page.getByRole("dialog", { name: "New Company" });
  await details.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("name is required")).toBeVisible();
  const form = page.locator("form").filter({ has: page.getByRole("textbox", { name: "Name" }) });
  await form.getByRole("textbox", { name: "Name" }).fill("Acme Corp");
  await form.getByRole("textbox", { name: "Link" }).fill("acme.example");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveURL(`/${a.username}/x/acme-corp`);
  await expect(page.getByRole("heading", { name: "Company" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Acme Corp" })).toBeVisible();

  // Take a note from the folder page: the folder is pre-selected.
  for (const text of ["Shipped the edge rewrite", "Hired two engineers"]) {
    await page.goto(`/${a.username}/x/acme-corp`);
    await page.getByRole("main").getByRole("link", { name: "Take a note" }).click();
    const composer = page.locator("form.composer");
    await expect(composer.getByRole("checkbox", { name: /Acme Corp/ })).toBeChecked();
    await composer.getByRole("combobox", { name: "X-label" }).selectOption("insight");
    await fillNote(composer, text);
    await composer.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(new RegExp(`/${a.username}/note/\\d+$`));
    await expect(page.getByRole("link", { name: "Acme Corp" })).toHaveAttribute("href", `/${a.username}/x/acme-corp`);
  }

  // The profile tab: filter and sort.
  await page.goto(`/${a.username}?type=Company&sort=time`);
  await expect(page.getByRole("link", { name: /Acme Corp/ })).toContainText("2 notes");
  await page.goto(`/${a.username}/x/acme-corp`);
  await expect(page.getByText("2 notes")).toBeVisible();
  await expect(page.getByText("Hired two engineers")).toBeVisible();

  // Deleting is refused while it holds notes.
  await page.getByLabel("Folder menu").click();
  await page.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("You have to remove all notes of this folder before deleting it.")).toBeVisible();

  // Unfile both notes through the API, then delete.
  const notes = await (
    await page.request.get(`/v1/notes?uid=${(await (await page.request.get("/v1/me")).json()).id}&page=1`)
  ).json();
  for (const n of notes.notes) {
    await page.request.patch("/v1/notes", { data: { id: n.id, label: n.label, content: n.content, folders: [] } });
  }
  await page.goto(`/${a.username}/x/acme-corp`);
  await page.getByLabel("Folder menu").click();
  await page.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Yes" }).click();
  await expect(page).toHaveURL("/");
  await expectNotFound(page, await page.goto(`/${a.username}/x/acme-corp`));
});
