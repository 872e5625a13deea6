// Mastodon's min_id: the page right above an id (the oldest statuses over it, answered newest
// first), and Link rel="prev" walking upwards with it, so an app catching up (Tusky, Ice Cubes,
// Ivory) misses nothing between; since_id stays the newest page above the id.
import { describe, expect, it } from "vitest";
import { user } from "../factories";
import { Client, type Res } from "../http";
import { appToken } from "../mastodon";

async function person() {
  const p = await user();
  const { token } = await appToken(p, "read write follow");
  const raw = new Client();
  raw.token = token;
  return { p, raw };
}

function linkOf(res: Res, rel: "next" | "prev"): string | null {
  const m = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(res.headers.get("link") ?? "");
  return m ? new URL(m[1]).pathname + new URL(m[1]).search : null;
}

/** Catches up from `path?min_id=`, following rel="prev" until an empty page: every id, oldest last per page. */
async function catchUp(c: Client, path: string) {
  const pages: string[][] = [];
  for (let next: string | null = path, n = 0; next && n < 10; n++) {
    const res = await c.get(next);
    expect(res.status, next).toBe(200);
    if (!res.body.length) break;
    pages.push(res.body.map((x: { id: string }) => x.id));
    next = linkOf(res, "prev");
  }
  return pages;
}

describe("Mastodon min_id", () => {
  it("reads the page right above the id on every timeline and walks up with Link prev", async () => {
    const writer = await person();
    const reader = await person();
    await reader.raw.post(`/api/v1/accounts/${writer.p.id}/follow`);
    const tag = `mi${Date.now().toString(36)}`;
    const ids: string[] = [];
    for (let i = 0; i < 16; i++)
      ids.push((await writer.raw.post("/api/v1/statuses", { status: `Catch up ${i} #${tag}` })).body.id);
    const down = (from: number, to: number) => ids.slice(to, from + 1).reverse();
    for (const path of [
      `/api/v1/timelines/tag/${tag}`,
      `/api/v1/accounts/${writer.p.id}/statuses`,
      "/api/v1/timelines/home",
    ]) {
      const first = await reader.raw.get(`${path}?min_id=${ids[2]}&limit=5`);
      expect(first.status, path).toBe(200);
      expect(
        first.body.map((x: { id: string }) => x.id),
        path,
      ).toEqual(down(7, 3));
      // since_id is still the newest page above the id.
      const since = await reader.raw.get(`${path}?since_id=${ids[2]}&limit=5`);
      expect(
        since.body.map((x: { id: string }) => x.id),
        path,
      ).toEqual(down(15, 11));
      // Walking up with Link prev from min_id misses nothing and repeats nothing.
      const pages = await catchUp(reader.raw, `${path}?min_id=${ids[2]}&limit=5`);
      expect(
        pages.flatMap((page) => [...page].reverse()),
        path,
      ).toEqual(ids.slice(3));
      expect(linkOf(first, "next"), path).toContain(`max_id=${ids[3]}`);
    }
    // The public timeline: the page above is this writer's (nobody else posts between in this test file).
    const pub = await reader.raw.get(`/api/v1/timelines/public?min_id=${ids[13]}&limit=2`);
    expect(pub.body.map((x: { id: string }) => x.id)).toEqual(down(15, 14));
  });

  it("reads notifications right above the id and walks up with Link prev", async () => {
    const writer = await person();
    const fan = await person();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await writer.raw.post("/api/v1/statuses", { status: `Liked ${i}` })).body.id);
    for (const id of ids) await fan.raw.post(`/api/v1/statuses/${id}/favourite`);
    const all = (await writer.raw.get("/api/v1/notifications?limit=40")).body.map((n: { id: string }) => n.id);
    expect(all).toHaveLength(8);
    const oldest = all.at(-1);
    const above = await writer.raw.get(`/api/v1/notifications?min_id=${oldest}&limit=3`);
    expect(above.body.map((n: { id: string }) => n.id)).toEqual(all.slice(-4, -1));
    const pages = await catchUp(writer.raw, `/api/v1/notifications?min_id=${oldest}&limit=3`);
    expect(pages.flat()).toHaveLength(7);
    expect(new Set(pages.flat())).toEqual(new Set(all.slice(0, -1)));
    const since = await writer.raw.get(`/api/v1/notifications?since_id=${oldest}&limit=3`);
    expect(since.body.map((n: { id: string }) => n.id)).toEqual(all.slice(0, 3));
  });
});
