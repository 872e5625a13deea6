// Handing an authenticated upgrade request over to the person's hub.
import type { Env } from "../../env";
import { hubOf, INFO_HEADER, PROTOCOL_HEADER } from "./shards";
import type { SocketInfo } from "./streams";

export const isUpgrade = (request: Request) => request.headers.get("upgrade")?.toLowerCase() === "websocket";

/**
 * The hub accepts the socket; its 101 is answered again here with headers of our own, so the
 * middleware on the way out (security headers, rate-limit words) can still add theirs.
 */
export async function handOver(env: Env, info: SocketInfo, protocol: string | null): Promise<Response> {
  const headers: Record<string, string> = { Upgrade: "websocket", [INFO_HEADER]: JSON.stringify(info) };
  if (protocol) headers[PROTOCOL_HEADER] = protocol;
  const res = await hubOf(env, info.uid).fetch("https://live.internal/socket", { headers });
  if (!res.webSocket) return res;
  return new Response(null, {
    status: 101,
    webSocket: res.webSocket,
    headers: protocol ? { "Sec-WebSocket-Protocol": protocol } : {},
  });
}
