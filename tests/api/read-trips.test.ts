// The /v1 reads the pages send in their own batch (search, notifications, a person's follow lists,
// moderation's three lists, the OAuth consent, the local outbox) are one D1 round trip when an app
// asks for them alone: each is one read, and a check of who asks (a moderator?) is a statement of
// that read, not a trip before it. Server-Timing says how many trips a request took.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { user, visitor } from "../factories";
import type { Res } from "../http";

const trips = (res: Res) => tripsOf(res.headers.get("server-timing"));

describe("reads the pages share with /v1", () => {
  it("search, notifications, follow lists and the outbox: one trip each, visitor and signed in", async () => {
    const [a, b] = [await user({ name: "Trip Reader" }), await user()];
    await b.post(`/v1/follows/${a.id}`);
    await a.post("/v1/notes", { label: "idea", content: "<p>roundtrip words</p>" });
    const asks = [
      "/v1/search?q=roundtrip&t=notes",
      "/v1/search?q=roundtrip&t=replies",
      "/v1/search?q=roundtrip&t=folders",
      "/v1/search?q=trip&t=users",
      "/v1/search?q=trip&t=users&suggest=1",
      `/v1/follows/${a.id}/followers`,
      `/v1/follows/${a.id}/following`,
    ];
    for (const path of asks) {
      for (const [who, c] of [
        ["visitor", visitor()],
        ["signed in", a],
      ] as const) {
        const res = await c.get(path);
        expect(res.status, `${who} ${path}`).toBe(200);
        expect(trips(res), `${who} ${path}`).toBe(1);
      }
    }
    const list = await a.get("/v1/notifications");
    expect(list.body.notis.map((n: { action: string }) => n.action)).toEqual(["follow"]);
    expect(trips(list)).toBe(1);
    const mail = await a.get(`/v1/dev/outbox?to=${encodeURIComponent(a.email)}`);
    expect(mail.body.messages[0].subject).toBe("Confirm your email for NoteX");
    expect(trips(mail)).toBe(1);
  });

  it("moderation's lists: one trip, the role checked in it; anyone else 403 in the same one trip", async () => {
    const [m, u] = [await user(), await user()];
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(m.id).run();
    for (const path of [
      "/v1/moderation/reports",
      "/v1/moderation/reports?status=closed",
      "/v1/moderation/log",
      "/v1/moderation/domains",
    ]) {
      const ok = await m.get(path);
      expect(ok.status, path).toBe(200);
      expect(trips(ok), path).toBe(1);
      const refused = await u.get(path);
      expect(refused.status, path).toBe(403);
      expect(trips(refused), path).toBe(1);
    }
  });

  it("the OAuth consent: one trip, its refusals the same", async () => {
    const c = visitor();
    const app = await c.post("/api/v1/apps", {
      client_name: "Trips",
      redirect_uris: "urn:ietf:wg:oauth:2.0:oob",
      scopes: "read",
    });
    const q = new URLSearchParams({
      client_id: app.body.client_id,
      redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
      response_type: "code",
      scope: "read",
    });
    const consent = await c.get(`/v1/oauth/authorize?${q}`);
    expect(consent.body).toMatchObject({ app: { name: "Trips" }, out_of_band: true });
    expect(trips(consent)).toBe(1);
    q.set("client_id", "nobody");
    const unknown = await c.get(`/v1/oauth/authorize?${q}`);
    expect(unknown.status).toBe(400);
    expect(trips(unknown)).toBe(1);
  });
});
