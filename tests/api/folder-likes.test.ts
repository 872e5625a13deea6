// Issue 15 bug 2: a folder's likes belong to the folder, whatever its type becomes. After
// Company → Project the old like still counts, can be removed, and the counter audit agrees.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { users } from "../factories";

describe("likes of a folder whose type changed (issue 15 bug 2)", () => {
  it("keep counting, can be removed and are never doubled", async () => {
    const [owner, fan, other] = await users(3);
    const folder = (await owner.post("/v1/folders", { type: "Company", name: "Acme Corp", descr: "", link: "" })).body;
    expect((await fan.post(`/v1/likes/${folder.id}?t=company`)).body.likenum).toBe(1);
    const moved = await owner.patch(`/v1/folders/${folder.id}`, { type: "Project", name: "Acme Corp" });
    expect(moved.status).toBe(200);

    expect((await other.post(`/v1/likes/${folder.id}?t=project`)).body.likenum).toBe(2);
    // The fan's like from before the change is the same like: liking again changes nothing.
    expect((await fan.post(`/v1/likes/${folder.id}?t=project`)).body.likenum).toBe(2);
    expect(await wrongCounters()).toEqual([]);
    // ... and it can be taken back under the folder's new type.
    const undo = await fan.delete(`/v1/likes/${folder.id}?t=project`);
    expect(undo.body).toMatchObject({ liked: false, likenum: 1 });
    expect((await owner.get(`/v1/folders/${folder.id}`)).body.likenum).toBe(1);
    expect(await wrongCounters()).toEqual([]);
    // The old kind no longer names this folder.
    expect((await fan.post(`/v1/likes/${folder.id}?t=company`)).status).toBe(404);
  });
});

describe("bookmarks of a folder whose type changed", () => {
  it("stay the folder's: shown, removable and never doubled under the new type", async () => {
    const [owner, fan] = await users(2);
    const folder = (await owner.post("/v1/folders", { type: "Company", name: "Bookmarked Co", descr: "", link: "" }))
      .body;
    expect((await fan.post(`/v1/bookmarks/${folder.id}?t=company`)).body).toEqual({ bookmarked: true });
    expect((await owner.patch(`/v1/folders/${folder.id}`, { type: "Project", name: "Bookmarked Co" })).status).toBe(
      200,
    );
    expect((await fan.get(`/v1/bookmarks/${folder.id}?t=project`)).body).toEqual({ bookmarked: true });
    // Bookmarking again under the new type is the same bookmark.
    expect((await fan.post(`/v1/bookmarks/${folder.id}?t=project`)).body).toEqual({ bookmarked: true });
    const rows = () =>
      env.DB.prepare("select count(*) n from bookmarks where user_id = ? and target_id = ? and kind != 'note'")
        .bind(fan.id, folder.id)
        .first<{ n: number }>();
    expect((await rows())?.n).toBe(1);
    expect((await fan.delete(`/v1/bookmarks/${folder.id}?t=project`)).body).toEqual({ bookmarked: false });
    expect((await rows())?.n).toBe(0);
    expect((await fan.get(`/v1/bookmarks/${folder.id}?t=project`)).body).toEqual({ bookmarked: false });
  });
});
