// NodeInfo 2.1 and 2.0 behind /.well-known/nodeinfo: how clients and servers tell what NoteX is.
// Served here rather than by Fedify, which writes 2.1 only: Mastodon.py asks for 2.0. Clients that
// pick their API by `software.name` (megalodon) fall back to `metadata.upstream`, so NoteX says there
// that its client API is Mastodon's, as Mastodon forks such as Hometown do.
import { Hono } from "hono";
import { siteOriginOf } from "../federation/context";
import { counts } from "../federation/data";
import { SOFTWARE_NAME, SOFTWARE_VERSION } from "./instance.routes";
import type { MastoEnv } from "./masto.http";

const SCHEMA = "http://nodeinfo.diaspora.software/ns/schema/";
const VERSIONS = ["2.1", "2.0"] as const;
const NODEINFO_TYPE = (v: string) => `application/json; profile="${SCHEMA}${v}#"`;

async function nodeInfo(c: { env: MastoEnv["Bindings"]; req: { url: string } }, version: (typeof VERSIONS)[number]) {
  const n = await counts(c.env.DB);
  const origin = siteOriginOf(c.env, c.req.url);
  return {
    version,
    software: {
      name: SOFTWARE_NAME,
      version: SOFTWARE_VERSION,
      // 2.0's schema allows no other key in `software`.
      ...(version === "2.1" ? { homepage: origin } : {}),
    },
    protocols: ["activitypub"],
    services: { inbound: [], outbound: ["rss2.0"] },
    openRegistrations: true,
    usage: { users: { total: n?.users ?? 0 }, localPosts: n?.notes ?? 0, localComments: 0 },
    metadata: { nodeName: "NoteX", upstream: { name: "mastodon", version: "4.5.0" } },
  };
}

export const nodeInfoRoutes = new Hono<MastoEnv>()
  .get("/.well-known/nodeinfo", (c) => {
    const origin = siteOriginOf(c.env, c.req.url);
    return c.json({ links: VERSIONS.map((v) => ({ rel: `${SCHEMA}${v}`, href: `${origin}/nodeinfo/${v}` })) });
  })
  .get("/nodeinfo/:version{2\\.[01]}", async (c) => {
    const version = c.req.param("version") === "2.0" ? "2.0" : "2.1";
    return c.json(await nodeInfo(c, version), 200, { "Content-Type": NODEINFO_TYPE(version) });
  });
