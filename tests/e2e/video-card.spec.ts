// A YouTube link is a click-to-load card: no request to YouTube (or any third party) before the
// click, the embed only after it; without JavaScript, a plain link card to the video.
import { expect, postNote, signedIn, test } from "./fixtures";

test("a YouTube video is a card that loads nothing from YouTube until it is played", async ({ page, js }) => {
  const a = await signedIn(page, "Video Poster");
  const id = await postNote(page, "Watch this", { video: "https://youtu.be/dQw4w9WgXcQ" });
  const thirdParty: string[] = [];
  const origin = new URL(test.info().project.use.baseURL as string).origin;
  await page.route(
    (url) => url.origin !== origin,
    (route) => {
      thirdParty.push(route.request().url());
      return route.abort();
    },
  );
  await page.goto(`/${a.username}/note/${id}`);
  const card = page.locator("article.note .video-card");
  await expect(card).toBeVisible();
  await expect(page.locator("iframe")).toHaveCount(0);
  expect(thirdParty).toEqual([]);
  if (!js) {
    const link = card.getByRole("link", { name: "Watch on YouTube" });
    await expect(link).toHaveAttribute("href", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    return;
  }
  await card.getByRole("button", { name: "Play YouTube video" }).click();
  const frame = page.locator("iframe[title='YouTube video']");
  await expect(frame).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1");
  await expect.poll(() => thirdParty.some((u) => u.startsWith("https://www.youtube-nocookie.com/embed/"))).toBe(true);
});
