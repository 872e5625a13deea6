// The Durable Object that holds live sockets with the WebSocket Hibernation API: an idle socket
// costs no duration, the object wakes for a message, a delivery or its alarm. Sockets are sharded
// by account (every socket of a person in one hub, tagged with the account and the session), so a
// post's fan-out is one call per shard with the online recipients in it (docs/live.md).
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../env";
import { sessionById } from "../../lib/sessions";
import type { OutMessage } from "../federation/context";
import { fanOut } from "./fanout";
import { type Delivery, hubAt, INFO_HEADER, PROTOCOL_HEADER, RECHECK_MS } from "./shards";
import { frame, type SocketInfo, seesNotifications, streamKey } from "./streams";

const info = (ws: WebSocket) => ws.deserializeAttachment() as SocketInfo;

export class LiveHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Keep-alive pings are answered without waking the object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** A socket handed over by an upgrade route, already authenticated (INFO_HEADER says who). */
  async fetch(request: Request): Promise<Response> {
    const who = JSON.parse(request.headers.get(INFO_HEADER) ?? "null") as SocketInfo | null;
    if (!who) return new Response("Expected a live socket", { status: 400 });
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server, [`u:${who.uid}`, `s:${who.sid}`]);
    server.serializeAttachment(who);
    // The person's first socket: online (the presence row's trigger copies their follows).
    if (this.ctx.getWebSockets(`u:${who.uid}`).length === 1)
      await this.env.DB.prepare("insert into live_presence (account_id) values (?) on conflict do nothing")
        .bind(who.uid)
        .run();
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + RECHECK_MS);
    const protocol = request.headers.get(PROTOCOL_HEADER);
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: protocol ? { "Sec-WebSocket-Protocol": protocol } : {},
    });
  }

  /** subscribe / unsubscribe, as Mastodon's clients send them. */
  webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    if (typeof message !== "string" || message.length > 1000) return;
    let m: { type?: unknown; stream?: unknown; tag?: unknown };
    try {
      m = JSON.parse(message);
    } catch {
      ws.send(JSON.stringify({ error: "Could not parse the message", status: 400 }));
      return;
    }
    if (m?.type !== "subscribe" && m?.type !== "unsubscribe") return;
    const me = info(ws);
    const parsed = streamKey(me, m.stream, m.tag);
    if ("error" in parsed) {
      ws.send(JSON.stringify({ error: parsed.error, status: parsed.status }));
      return;
    }
    const subs = new Set(me.subs);
    if (m.type === "subscribe") subs.add(parsed.key);
    else subs.delete(parsed.key);
    // A socket follows at most a few dozen streams, as Mastodon's clients open them.
    if (subs.size > 50) return;
    ws.serializeAttachment({ ...me, subs: [...subs] });
  }

  async webSocketClose(ws: WebSocket, code: number) {
    // Codes 1005/1006 say "none given" / "dropped" and may not be sent back.
    if (ws.readyState !== WebSocket.CLOSED) ws.close(code === 1005 || code === 1006 ? 1000 : code, "");
    await this.left(ws);
  }

  async webSocketError(ws: WebSocket) {
    await this.left(ws);
  }

  /** The person's last socket here went: offline (the trigger drops their live follows). */
  private async left(ws: WebSocket) {
    const { uid } = info(ws);
    const others = this.ctx.getWebSockets(`u:${uid}`).filter((s) => s !== ws && s.readyState === WebSocket.OPEN);
    if (!others.length) await this.env.DB.prepare("delete from live_presence where account_id = ?").bind(uid).run();
  }

  /**
   * Every RECHECK_MS while sockets are open: a socket whose session has ended (token revoked,
   * signed out everywhere, password changed, account suspended) is closed.
   */
  async alarm() {
    const sockets = this.ctx.getWebSockets();
    const sessions = new Map(sockets.map((ws) => [info(ws).sid, info(ws).uid]));
    for (const [sid, uid] of sessions) {
      if (await sessionById(this.env.SESSIONS, uid, sid)) continue;
      for (const ws of this.ctx.getWebSockets(`s:${sid}`)) {
        ws.close(1008, "The access token was revoked");
        await this.left(ws);
      }
    }
    if (this.ctx.getWebSockets().length) await this.ctx.storage.setAlarm(Date.now() + RECHECK_MS);
  }

  /** Sends each delivery to the sockets it names. */
  deliver(items: Delivery[]) {
    for (const d of items) {
      for (const uid of d.to ?? [])
        for (const ws of this.ctx.getWebSockets(`u:${uid}`)) {
          const me = info(ws);
          const own =
            d.event === "notification"
              ? seesNotifications(me)
                ? me.subs.filter((k) => k === "user" || k === "user:notification")
                : []
              : me.subs.filter((k) => k === "user");
          for (const key of own) ws.send(frame(key, d.event, d.payload));
        }
      if (!d.streams?.length && !d.anyTag) continue;
      const wanted = new Set(d.streams);
      const skip = new Set(d.skip);
      for (const ws of this.ctx.getWebSockets()) {
        const me = info(ws);
        if (skip.has(me.uid)) continue;
        for (const key of me.subs)
          if (wanted.has(key) || (d.anyTag && key.startsWith("hashtag"))) ws.send(frame(key, d.event, d.payload));
      }
    }
  }

  /** Works out who gets `msg` and hands each shard its part (called on a publisher, off the request). */
  async publish(msg: OutMessage) {
    await fanOut(this.env, msg, (shard, items) => hubAt(this.env, shard).deliver(items));
  }
}
