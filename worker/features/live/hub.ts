// The Durable Object that holds live sockets with the WebSocket Hibernation API: an idle socket
// costs no duration, the object wakes for a message, a delivery or its alarm. Sockets are sharded
// by account (every socket of a person in one hub, tagged with the account and the session), so a
// post's fan-out is one call per shard with the online recipients in it (docs/live.md).
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../env";
import { sessionById } from "../../lib/sessions";
import type { OutMessage } from "../federation/context";
import { fanOut } from "./fanout";
import {
  type Delivery,
  hubAt,
  INFO_HEADER,
  noticeFor,
  PROTOCOL_HEADER,
  publisherAt,
  RECHECK_MS,
  SHARDS,
  shardOf,
} from "./shards";
import { frame, type SocketInfo, seesNotifications, streamKey } from "./streams";

const info = (ws: WebSocket) => ws.deserializeAttachment() as SocketInfo;
const isOpen = (ws: WebSocket) => ws.readyState === WebSocket.OPEN;
const ALL = Array.from({ length: SHARDS }, (_, s) => s);

export class LiveHub extends DurableObject<Env> {
  /** On a publisher: which shards hold sockets (absent: not known, asked before the next fan-out). */
  private shards = new Map<number, boolean>();
  /** On a publisher: how often each shard said it changed (an answer older than a change is dropped). */
  private changes = new Map<number, number>();

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
    // The shard's first socket: the publishers stop skipping it.
    if (this.ctx.getWebSockets().filter(isOpen).length === 1) await this.changed(shardOf(who.uid));
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

  /**
   * The person's last socket here went: offline (the trigger drops their live follows). The presence
   * row goes last, so once it is gone this hub has told everyone what it had to.
   */
  private async left(ws: WebSocket) {
    const { uid } = info(ws);
    if (!this.ctx.getWebSockets().some((s) => s !== ws && isOpen(s))) await this.changed(shardOf(uid));
    const others = this.ctx.getWebSockets(`u:${uid}`).filter((s) => s !== ws && isOpen(s));
    if (!others.length) await this.env.DB.prepare("delete from live_presence where account_id = ?").bind(uid).run();
  }

  /** This shard went from no sockets to some or back: every publisher asks it again before fanning out. */
  private async changed(shard: number) {
    await Promise.all(ALL.map((p) => publisherAt(this.env, p).shardChanged(shard)));
  }

  /** Whether this hub holds an open socket (asked by a publisher). */
  holdsSockets() {
    return this.ctx.getWebSockets().some(isOpen);
  }

  /** On a publisher: a shard's sockets came or went. */
  shardChanged(shard: number) {
    this.shards.delete(shard);
    this.changes.set(shard, (this.changes.get(shard) ?? 0) + 1);
  }

  /** On a publisher: the shards holding sockets, from what they told it (asking those it does not know). */
  private async openShards(): Promise<number[]> {
    const unknown = ALL.filter((s) => !this.shards.has(s));
    const asked = unknown.map((s) => ({ s, at: this.changes.get(s) ?? 0 }));
    const answers = await Promise.all(unknown.map((s) => hubAt(this.env, s).holdsSockets()));
    asked.forEach(({ s, at }, i) => {
      if ((this.changes.get(s) ?? 0) === at) this.shards.set(s, answers[i]);
    });
    return ALL.filter((s) => this.shards.get(s) !== false);
  }

  /** Sessions that just ended (revoked, signed out, suspended): their sockets close now. */
  async closeSessions(sids: string[]) {
    for (const sid of sids)
      for (const ws of this.ctx.getWebSockets(`s:${sid}`)) {
        ws.close(1008, "The access token was revoked");
        await this.left(ws);
      }
  }

  /**
   * A safety net behind the push above (a hub that could not be reached when a session ended):
   * every RECHECK_MS while sockets are open, a socket whose session has ended is closed.
   */
  async alarm() {
    const sockets = this.ctx.getWebSockets();
    const sessions = new Map(sockets.map((ws) => [info(ws).sid, info(ws).uid]));
    for (const [sid, uid] of sessions) {
      if (await sessionById(this.env.SESSIONS, uid, sid)) continue;
      await this.closeSessions([sid]);
    }
    if (this.ctx.getWebSockets().length) await this.ctx.storage.setAlarm(Date.now() + RECHECK_MS);
  }

  /** Sends each delivery to the sockets it names. */
  deliver(items: Delivery[]) {
    for (const d of items) {
      (d.to ?? []).forEach((uid, i) => {
        for (const ws of this.ctx.getWebSockets(`u:${uid}`)) {
          const me = info(ws);
          const own =
            d.event === "notification"
              ? seesNotifications(me)
                ? me.subs.filter((k) => k === "user" || k === "user:notification")
                : []
              : me.subs.filter((k) => k === "user");
          const payload = d.ids ? noticeFor(d.payload, d.ids[i]) : d.payload;
          for (const key of own) ws.send(frame(key, d.event, payload));
        }
      });
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

  /**
   * Works out who gets `msg` and hands each shard its part (called on a publisher, off the request).
   * With no socket anywhere it stops here, without a D1 read; shards with none are not called.
   */
  async publish(msg: OutMessage) {
    const open = new Set(await this.openShards());
    if (!open.size) return;
    await fanOut(this.env, msg, async (shard, items) => {
      if (open.has(shard)) await hubAt(this.env, shard).deliver(items);
    });
  }
}
