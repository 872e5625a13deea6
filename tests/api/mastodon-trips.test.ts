// How many D1 round trips a Mastodon app's reads take (Server-Timing under APP_ENV=local). The
// ceilings are today's counts: the page's rows, then the accounts and bookmarks those rows name
// (and before them an owner's or a status's key), so they hold the line while the reads are
// folded into one batch; the credentials read is already one.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { user } from "../factories";
import { BASE } from "../http";
import { appToken } from "../mastodon";

async function get(token: string, path: string) {
  const res = await (exports as any).default.fetch(
    new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${token}` } }),
  );
  return { status: res.status as number, trips: tripsOf(res.headers.get("server-timing")) };
}

describe("Mastodon reads' round trips", () => {
  it("each read stays within its trips", async () => {
    const a = await user();
    const { client, token } = await appToken(a, "read write follow");
    const s = await client.v1.statuses.create({ status: "trip words #triptag" });
    const ceilings: [string, number][] = [
      ["/api/v1/timelines/home", 2],
      ["/api/v1/timelines/public", 2],
      ["/api/v1/timelines/tag/triptag", 2],
      [`/api/v1/accounts/${a.id}/statuses`, 3],
      ["/api/v1/bookmarks", 3],
      ["/api/v1/favourites", 3],
      ["/api/v1/notifications", 3],
      [`/api/v1/statuses/${s.id}`, 2],
      [`/api/v1/statuses/${s.id}/context`, 5],
      ["/api/v1/accounts/verify_credentials", 1],
    ];
    for (const [path, most] of ceilings) {
      const r = await get(token, path);
      expect(r.status, path).toBe(200);
      expect(r.trips, path).toBeGreaterThan(0);
      expect(r.trips, path).toBeLessThanOrEqual(most);
    }
  });
});
