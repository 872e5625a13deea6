// Live sockets in tests: a WebSocket to the worker under test (an Upgrade request through its fetch
// handler, the pool's resp.webSocket accepted here), with the frames it receives kept to wait on.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { BASE } from "./http";

export interface Frame {
  stream?: string[];
  event?: string;
  payload?: string;
  error?: string;
}

export class TestSocket {
  frames: Frame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: (() => void)[] = [];
  constructor(
    readonly ws: WebSocket,
    readonly response: Response,
  ) {
    ws.accept();
    ws.addEventListener("message", (e) => {
      this.frames.push(JSON.parse(String(e.data)));
      this.wake();
    });
    ws.addEventListener("close", (e) => {
      this.closed = { code: e.code, reason: e.reason };
      this.wake();
    });
  }
  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }
  send(message: unknown) {
    this.ws.send(JSON.stringify(message));
  }
  /** The first frame matching `match` (waiting up to `ms`), or null. */
  async next(match: (f: Frame) => boolean, ms = 2000): Promise<Frame | null> {
    const end = Date.now() + ms;
    for (;;) {
      const found = this.frames.find(match);
      if (found || Date.now() >= end) return found ?? null;
      // One timer per wait, cleared when a frame wakes it: a thousand sockets waiting stay a
      // thousand timers (workerd allows 10,000 at once).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, end - Date.now());
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  async waitClosed(ms = 2000) {
    const end = Date.now() + ms;
    while (!this.closed && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return this.closed;
  }
  close() {
    this.ws.close(1000, "done");
  }
}

/**
 * Closes `sockets` (all of one person, `uid`) and waits until their hub has done what a close sets
 * off: the close answered, then the person's presence row gone, the hub's last step. A file that
 * ended before would leave the hub working while the test environment is torn down.
 */
export async function closeAndSettle(db: D1Database, uid: number, ...sockets: TestSocket[]) {
  for (const s of sockets) s.close();
  for (const s of sockets) expect(await s.waitClosed()).not.toBeNull();
  const online = () => db.prepare("select 1 from live_presence where account_id = ?").bind(uid).first();
  await expect.poll(online, { timeout: 5000, interval: 20 }).toBeNull();
}

/** Opens a socket at `path`; answers the upgrade's response (its status when refused) and the socket. */
export async function openSocket(path: string, headers: Record<string, string> = {}) {
  const res: Response = await (exports as any).default.fetch(
    new Request(`${BASE}${path}`, { headers: { Upgrade: "websocket", ...headers } }),
  );
  return { res, socket: res.webSocket ? new TestSocket(res.webSocket, res) : null };
}

/**
 * A WebSocket constructor for masto.js and megalodon: `new Sock(url, protocols)` connects to the
 * worker under test as a browser would (the protocols offered in Sec-WebSocket-Protocol).
 */
export class WorkerWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = 0;
  protocol = "";
  private ws: WebSocket | null = null;
  constructor(url: string | URL, protocols?: string | string[]) {
    super();
    const list = typeof protocols === "string" ? [protocols] : (protocols ?? []);
    const http = String(url).replace(/^ws/, "http");
    const headers: Record<string, string> = { Upgrade: "websocket" };
    if (list.length) headers["Sec-WebSocket-Protocol"] = list.join(", ");
    (exports as any).default.fetch(new Request(http, { headers })).then((res: Response) => {
      if (!res.webSocket) {
        this.readyState = 3;
        this.dispatchEvent(new Event("error"));
        this.dispatchEvent(new CloseEvent("close", { code: 1006, reason: String(res.status) }));
        return;
      }
      this.ws = res.webSocket;
      this.ws.accept();
      this.protocol = res.headers.get("sec-websocket-protocol") ?? "";
      this.ws.addEventListener("message", (e) => this.dispatchEvent(new MessageEvent("message", { data: e.data })));
      this.ws.addEventListener("close", (e) => {
        this.readyState = 3;
        this.dispatchEvent(new CloseEvent("close", { code: e.code, reason: e.reason }));
      });
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    });
  }
  send(data: string) {
    // A closing client may still say "unsubscribe": dropped, as a browser's would be.
    if (this.readyState === 1) this.ws?.send(data);
  }
  close(code?: number, reason?: string) {
    this.readyState = 2;
    this.ws?.close(code ?? 1000, reason ?? "");
  }
}
