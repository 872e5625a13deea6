// A new avatar or cover is cropped and scaled in the browser before it goes up (with JavaScript):
// the picture moves under a round 1:1 frame (a 3:1 band for the cover), by pointer or keyboard,
// and what is stored is the square people see, 400 × 400. Without JavaScript the chosen file goes
// up whole, as before.
import type { Page } from "@playwright/test";
import { expect, signedIn, test } from "./fixtures";
import { rgbPng } from "./png";

/** 1200×800: a red band on the left (200 px), green in the middle, a blue band on the right (200 px). */
function bandsPng(): Buffer {
  const width = 1200;
  return rgbPng(width, 800, () => {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++)
      row.set(x < 200 ? [230, 20, 20] : x >= 1000 ? [20, 20, 230] : [20, 200, 20], 1 + x * 3);
    return row;
  });
}

/** The stored picture at `src` as the browser decodes it: its size and the colours near its corners. */
const picture = (page: Page, src: string) =>
  page.evaluate(async (url) => {
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext("2d") as CanvasRenderingContext2D;
    ctx.drawImage(img, 0, 0);
    const at = (x: number, y: number) => {
      const [r, g, b] = ctx.getImageData(x, y, 1, 1).data;
      return r > 150 && g < 100 ? "red" : b > 150 && g < 100 ? "blue" : g > 150 && r < 100 ? "green" : `${r},${g},${b}`;
    };
    const [w, h] = [img.naturalWidth, img.naturalHeight];
    return { width: w, height: h, corners: [at(4, 4), at(w - 5, 4), at(4, h - 5), at(w - 5, h - 5)] };
  }, src);

const myAvatar = async (page: Page) => ((await (await page.request.get("/v1/me")).json()) as { avatar: string }).avatar;

test("a new avatar is cropped to a square in the browser (pointer and keys), and that square is what the profile shows", async ({
  page,
  js,
}) => {
  test.skip(!js, "the crop needs JavaScript; without it the file goes up whole (next test)");
  const me = await signedIn(page, "Cropped Person");
  await page.goto("/settings/profile");
  await page
    .getByLabel("Avatar", { exact: true })
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: bandsPng() });

  const dialog = page.getByRole("dialog", { name: "Crop your avatar" });
  await expect(dialog).toBeVisible();
  // The frame takes focus once the picture is in: + zooms, arrows move the picture under it.
  const frame = dialog.getByRole("application", { name: "Avatar crop frame" });
  await expect(frame).toBeFocused();
  for (let i = 0; i < 10; i++) await page.keyboard.press("+");
  await expect(dialog.getByLabel("Zoom")).toHaveValue("2");
  await page.keyboard.press("ArrowRight");
  // A drag moves it too (the picture stays under the whole frame: it cannot be pulled past an edge).
  const box = await frame.boundingBox();
  if (!box) throw new Error("no frame");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 10, box.y + box.height / 2 + 10, { steps: 4 });
  await page.mouse.up();
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog).toBeHidden();
  // The field now holds the cropped picture, shown beside it before anything is saved.
  await expect(page.locator(".image-picker.square img.image-picker-now")).toHaveAttribute("src", /^blob:/);
  await expect(page.getByText("New avatar ready: it is saved with Save.")).toBeVisible();

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/saved=profile/);
  const src = await myAvatar(page);
  expect(src).not.toBe("");
  // 400 × 400 and only the middle of the picture: the red and blue bands were cropped away.
  expect(await picture(page, src)).toEqual({ width: 400, height: 400, corners: ["green", "green", "green", "green"] });
  await page.goto(`/${me.username}`);
  await expect(page.locator(`main img.avatar[src="${src}"]`).first()).toBeVisible();
});

test("Cancel leaves the field as it was; a cover is cropped to 3:1", async ({ page, js }) => {
  test.skip(!js, "the crop needs JavaScript");
  await signedIn(page, "Cover Person");
  await page.goto("/settings/profile");
  const avatar = page.getByLabel("Avatar", { exact: true });
  await avatar.setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: bandsPng() });
  await page.getByRole("dialog", { name: "Crop your avatar" }).getByRole("button", { name: "Cancel" }).click();
  expect(await avatar.evaluate((el: HTMLInputElement) => el.files?.length)).toBe(0);

  await page
    .getByLabel("Cover", { exact: true })
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: bandsPng() });
  const dialog = page.getByRole("dialog", { name: "Crop your cover" });
  await expect(dialog.getByRole("application", { name: "Cover crop frame" })).toBeFocused();
  await dialog.getByRole("button", { name: "Apply" }).click();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/saved=profile/);
  const { cover } = (await (await page.request.get("/v1/me")).json()) as { cover: string };
  // The widest 3:1 band of a 1200 × 800 picture is 1200 × 400, stored at 1000 × 333 (spec 5: ≤ 1000 px).
  const shown = await picture(page, cover);
  expect([shown.width, shown.height]).toEqual([1000, 333]);
});

test("without JavaScript the chosen avatar goes up whole", async ({ page, js }) => {
  test.skip(js, "the plain file field");
  await signedIn(page, "Plain Person");
  await page.goto("/settings/profile");
  await page
    .getByLabel("Avatar", { exact: true })
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: bandsPng() });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/saved=profile/);
  const src = await myAvatar(page);
  expect(src).not.toBe("");
  const res = await page.request.get(src);
  expect(res.status()).toBe(200);
  const png = await res.body();
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 800]);
});
