// What apps and libraries ask a server before anything else: how they tell what it is (NodeInfo
// 2.0 and 2.1, the instance's version), paths with a trailing slash, and the start-up probes of
// features NoteX does not have, answered as Mastodon answers on a server with none of them.
import { describe, expect, it } from "vitest";
import { user, visitor } from "../factories";
import { Client } from "../http";
import { appToken } from "../mastodon";

async function app() {
  const p = await user();
  const { token } = await appToken(p, "read write follow");
  const raw = new Client();
  raw.token = token;
  return { p, raw };
}

describe("Mastodon clients' start-up", () => {
  it("serves NodeInfo 2.0 and 2.1, both saying the client API is Mastodon's", async () => {
    await user();
    const wk = await visitor().get("/.well-known/nodeinfo");
    expect(wk.status).toBe(200);
    const rels = wk.body.links.map((l: { rel: string }) => l.rel);
    expect(rels).toEqual([
      "http://nodeinfo.diaspora.software/ns/schema/2.1",
      "http://nodeinfo.diaspora.software/ns/schema/2.0",
    ]);
    for (const link of wk.body.links) {
      const ni = await visitor().get(new URL(link.href).pathname);
      expect(ni.status, link.href).toBe(200);
      expect(ni.body.version).toBe(link.rel.endsWith("2.0") ? "2.0" : "2.1");
      expect(ni.body.software.name).toBe("notex");
      expect(ni.body.protocols).toEqual(["activitypub"]);
      expect(ni.body.usage.users.total).toBeGreaterThan(0);
      // What megalodon's detector reads for a server it does not know by name.
      expect(ni.body.metadata.upstream.name).toBe("mastodon");
      expect(ni.body.metadata.nodeName).toBe("NoteX");
    }
    // NodeInfo 2.0 has no homepage or repository in `software` (its schema forbids more keys).
    const two = await visitor().get("/nodeinfo/2.0");
    expect(Object.keys(two.body.software).sort()).toEqual(["name", "version"]);
  });

  it("says in the instance's version that it speaks Mastodon's API, and has no null streaming URL", async () => {
    const v1 = await visitor().get("/api/v1/instance");
    expect(v1.body.version).toMatch(/^4\.\d+\.\d+ \(compatible; NoteX 0\.1\.0\)$/);
    expect(v1.body.urls.streaming_api).not.toBeNull();
    const v2 = await visitor().get("/api/v2/instance");
    expect(v2.body.version).toBe(v1.body.version);
    expect(v2.body.configuration.urls.streaming).not.toBeNull();
  });

  it("answers with or without a trailing slash, for every method", async () => {
    const { raw } = await app();
    for (const path of ["/api/v1/instance/", "/api/v2/instance/", "/.well-known/nodeinfo/", "/nodeinfo/2.1/"]) {
      const res = await visitor().get(path);
      expect(res.status, path).toBe(200);
    }
    const me = await raw.get("/api/v1/accounts/verify_credentials/");
    expect(me.status).toBe(200);
    const posted = await raw.post("/api/v1/statuses/", { status: "posted through a trailing slash" });
    expect(posted.status).toBe(200);
    expect(posted.body.content).toContain("trailing slash");
    const token = await visitor().post("/oauth/token/", { grant_type: "client_credentials" });
    expect(token.status).not.toBe(404);
  });

  it("answers the start-up probes of what NoteX does not have as an empty server does", async () => {
    const { p, raw } = await app();
    const empty = [
      "/api/v1/filters",
      "/api/v2/filters",
      "/api/v1/lists",
      "/api/v1/followed_tags",
      "/api/v1/announcements",
      "/api/v1/conversations",
      "/api/v1/domain_blocks",
      "/api/v1/endorsements",
      "/api/v1/featured_tags",
      "/api/v1/scheduled_statuses",
      "/api/v1/trends/tags",
      `/api/v1/accounts/${p.id}/lists`,
      `/api/v1/accounts/${p.id}/featured_tags`,
    ];
    for (const path of empty) {
      const res = await raw.get(path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual([]);
    }
    const prefs = await raw.get("/api/v1/preferences");
    expect(prefs.status).toBe(200);
    expect(prefs.body).toMatchObject({ "posting:default:visibility": "public", "reading:expand:media": "default" });
    // Without a token they ask for one, as Mastodon does.
    expect((await visitor().get("/api/v1/preferences")).status).toBe(401);
    expect((await visitor().get("/api/v1/lists")).status).toBe(401);
    // An unknown account's lists are a 404.
    expect((await raw.get("/api/v1/accounts/999999999/lists")).status).toBe(404);
  });

  it("suggests people to follow from NoteX's own suggestions (v1 accounts, v2 with a source)", async () => {
    const star = await user();
    await star.post("/v1/notes", { label: "idea", content: "<p>worth following</p>" });
    const { raw } = await app();
    const v1 = await raw.get("/api/v1/suggestions?limit=40");
    expect(v1.status).toBe(200);
    expect(v1.body.map((a: { id: string }) => a.id)).toContain(String(star.id));
    expect(v1.body[0]).toHaveProperty("acct");
    const v2 = await raw.get("/api/v2/suggestions?limit=40");
    expect(v2.status).toBe(200);
    const mine = v2.body.find((s: { account: { id: string } }) => s.account.id === String(star.id));
    expect(mine).toMatchObject({ source: "global", sources: ["featured"] });
    // Following them takes them off the list.
    await raw.post(`/api/v1/accounts/${star.id}/follow`);
    const again = await raw.get("/api/v1/suggestions?limit=40");
    expect(again.body.map((a: { id: string }) => a.id)).not.toContain(String(star.id));
    expect((await visitor().get("/api/v1/suggestions")).status).toBe(401);
  });
});
