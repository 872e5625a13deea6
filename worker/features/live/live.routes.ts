// A NoteX tab's one live socket (GET /v1/live), signed in by the page's own cookie. A browser sends
// cookies on a WebSocket from any site, so the Origin must be this site's (no cross-site hijack).
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { pageSession } from "../../lib/session";
import { siteOriginOf } from "../federation/context";
import { handOver, isUpgrade } from "./sockets";

export const liveRoutes = new Hono<AppEnv>().get("/v1/live", async (c) => {
  if (!isUpgrade(c.req.raw))
    throw new AppError(400, "websocket_only", "This endpoint answers WebSocket connections only");
  const origin = c.req.header("origin");
  if (origin !== siteOriginOf(c.env, c.req.url) && origin !== new URL(c.req.url).origin)
    throw new AppError(403, "forbidden", "Live updates are for this site's own pages");
  const { user } = await pageSession(c);
  if (!user) throw new AppError(401, "unauthorized", "Sign in to get live updates");
  // A page sees what its person sees: their own streams, and the public ones it subscribes to.
  return handOver(c.env, { uid: user.id, sid: user.sid, kind: "page", scopes: ["read"], subs: ["user"] }, null);
});
