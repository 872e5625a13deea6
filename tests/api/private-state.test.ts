// Issue 20 §4 (and issue 15 bug 1): a person's unread count is theirs alone, and deleted replies
// take their notifications with them — no readable text left behind, badges exact.
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import type { TestUser } from "../factories";
import { users, visitor } from "../factories";

const stats = (body: { jstats: string }) => JSON.parse(body.jstats) as Record<string, number>;
const badge = async (u: TestUser) => stats((await u.get("/v1/me")).body).noti;
const texts = async (u: TestUser) =>
  ((await u.get("/v1/notifications")).body.notis as { extra: string; href: string }[]).map((n) => n.extra);

describe("unread counts are private (issue 20 §4)", () => {
  it("GET /v1/users/{name} shows noti and invitation only to the person", async () => {
    const [a, b] = await users(2);
    await b.post(`/v1/follows/${a.id}`); // a has one unread notification
    for (const who of [b, visitor()]) {
      const res = await who.get(`/v1/users/${a.username}`);
      expect(res.status).toBe(200);
      expect(stats(res.body)).not.toHaveProperty("noti");
      expect(stats(res.body)).not.toHaveProperty("invitation");
      expect(stats(res.body).follower).toBe(1);
    }
    expect(stats((await a.get(`/v1/users/${a.username}`)).body).noti).toBe(1);
    expect(await badge(a)).toBe(1);
  });
});

/** owner's note, fan's reply `fanWords` on it, and other's reply `underWords` under that and like of it. */
async function thread(fanWords: string, underWords: string) {
  const [owner, fan, other] = await users(3);
  const note = (await owner.post("/v1/notes", { label: "idea", content: "<p>hello</p>" })).body.note.id;
  const reply = (await fan.post("/v1/replies", { parent: -note, content: `<p>${fanWords}</p>` })).body.id;
  await other.post("/v1/replies", { parent: reply, content: `<p>${underWords}</p>` });
  await other.post(`/v1/likes/${reply}?t=reply`);
  return { owner, fan, other, note, reply };
}

describe("deleting replies removes their notifications (issue 20 §4, issue 15 bug 1)", () => {
  it("a deleted reply (and its subtree) leaves no notification, and badges drop by the unread ones", async () => {
    const { owner, fan, other, reply } = await thread("secret fan words", "secret under words");
    expect(await badge(owner)).toBe(1);
    expect(await badge(fan)).toBe(2); // the reply under theirs and the like
    // The fan has read theirs: removing read rows must not take the badge below what is unread.
    await fan.post("/v1/notifications/read");
    await other.post("/v1/replies", { parent: reply, content: "<p>later words</p>" });
    expect(await badge(fan)).toBe(1);

    expect((await fan.delete(`/v1/replies/${reply}`)).status).toBe(200);
    expect(await texts(owner)).not.toContain("secret fan words");
    expect(await texts(fan)).toEqual([]);
    expect(await badge(owner)).toBe(0);
    expect(await badge(fan)).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });

  it("a deleted note takes its replies' notifications with it", async () => {
    const { owner, fan, other, note } = await thread("fan words", "words under the fan's");
    const keep = (await fan.post("/v1/notes", { label: "idea", content: "<p>fan's own</p>" })).body.note.id;
    await other.post("/v1/replies", { parent: -keep, content: "<p>stays</p>" });
    expect(await badge(fan)).toBe(3);

    expect((await owner.delete(`/v1/notes/${note}`)).status).toBe(200);
    expect(await texts(owner)).toEqual([]);
    expect(await texts(fan)).toEqual(["stays"]);
    expect(await badge(owner)).toBe(0);
    expect(await badge(fan)).toBe(1);
    expect(await wrongCounters()).toEqual([]);
  });
});
