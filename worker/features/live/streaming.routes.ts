// Mastodon's streaming API over WebSocket (docs.joinmastodon.org/methods/streaming): the token by
// Authorization, `access_token` or Sec-WebSocket-Protocol (echoed back, as browsers require), the
// first stream by `?stream=`, the rest by subscribe messages. The socket lives in the person's hub.
import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import type { MastoContext, MastoEnv } from "../mastodon/masto.http";
import { holds } from "../mastodon/scopes";
import { readToken } from "../mastodon/tokens";
import { handOver, isUpgrade } from "./sockets";
import { type SocketInfo, streamKey } from "./streams";

const READS = ["read", "read:statuses", "read:notifications"];

async function stream(c: MastoContext) {
  if (!isUpgrade(c.req.raw))
    throw new AppError(400, "websocket_only", "The streaming API answers WebSocket connections only");
  let token = c.var.token;
  let protocol: string | null = null;
  if (!token) {
    const query = c.req.query("access_token");
    // Browsers cannot set headers on a WebSocket: apps send the token as the subprotocol.
    const offered = c.req.header("sec-websocket-protocol")?.split(",")[0]?.trim() || null;
    if (!query) protocol = offered;
    const secret = query || offered;
    token = secret ? await readToken(c as unknown as Context<AppEnv>, secret) : null;
  }
  if (!token?.user) throw new AppError(401, "unauthorized", "Error: Missing access token");
  if (!READS.some((s) => holds(token.scopes, s)))
    throw new AppError(401, "unauthorized", "Access token does not cover required scopes");
  const info: SocketInfo = { uid: token.user.id, sid: token.user.sid, kind: "app", scopes: token.scopes, subs: [] };
  const first = c.req.query("stream");
  if (first) {
    const parsed = streamKey(info, first, c.req.query("tag"));
    if ("error" in parsed) throw new AppError(parsed.status as 400, "bad_stream", parsed.error);
    info.subs.push(parsed.key);
  }
  return handOver(c.env, info, protocol);
}

export const streamingRoutes = new Hono<MastoEnv>()
  .get("/api/v1/streaming/health", (c) => c.text("OK"))
  .get("/api/v1/streaming", stream)
  .get("/api/v1/streaming/", stream);
