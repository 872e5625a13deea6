import { expect, otherPerson, signedIn, test } from "./fixtures";

// Live pages: with JavaScript, a followed person's new note shows as a "1 new note" pill and the
// notification badge counts up, without a reload; without JavaScript nothing opens a socket.

test("a followed person's note shows as '1 new note' and moves the badge, without a reload", async ({
  page,
  playwright,
  js,
}) => {
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(ws.url()));
  await signedIn(page, "Live Reader");
  const other = await otherPerson(playwright);
  const { id: otherId } = await (await other.req.get("/v1/me")).json();
  expect((await page.request.post(`/v1/follows/${otherId}`)).ok()).toBe(true);
  await page.goto("/?tab=following");
  if (!js) {
    await expect(page.getByText("Following").first()).toBeVisible();
    expect(sockets).toEqual([]);
    await other.req.dispose();
    return;
  }
  await expect(page.locator("html[data-live=open]")).toHaveCount(1);
  const badge = page.getByRole("link", { name: /^Notifications/ }).first();
  const before = Number(
    (
      await badge
        .locator(".badge")
        .textContent()
        .catch(() => "0")
    )?.match(/\d+/)?.[0] ?? 0,
  );
  let reloaded = false;
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) reloaded = true;
  });

  const res = await other.req.post("/v1/notes", {
    data: { label: "idea", content: "<p>Fresh from the other side</p>" },
  });
  expect(res.ok()).toBe(true);
  const pill = page.getByRole("button", { name: "1 new note" });
  await expect(pill).toBeVisible();
  await expect(badge.locator(".badge")).toContainText(String(before + 1));
  await pill.click();
  await expect(page.getByText("Fresh from the other side")).toBeVisible();
  await expect(pill).toHaveCount(0);
  expect(reloaded).toBe(false);
  expect(sockets).toHaveLength(1);
  await other.req.dispose();
});
