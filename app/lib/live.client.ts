// A tab's one live socket (GET /v1/live, signed in by the page's cookie): loaded only once a
// signed-in page is up, so it never weighs on the first load. It reconnects with growing, jittered
// delays, closes while the tab is hidden (a hidden tab is told nothing) and, when it comes back or
// reconnects, says so: the page then reads itself again to catch up on what it missed.

export interface LiveFrame {
  stream: string[];
  event: string;
  payload: string;
}

export interface LiveConnection {
  /** The streams the page wants now ("public:local", "note|12"); the rest are left. */
  follow(keys: string[]): void;
  stop(): void;
}

const MAX_DELAY_MS = 30_000;

const message = (type: "subscribe" | "unsubscribe", key: string) => {
  const [stream, tag] = key.split("|");
  return JSON.stringify(tag ? { type, stream, tag } : { type, stream });
};

export function connectLive(onFrame: (f: LiveFrame) => void, onCatchUp: () => void): LiveConnection {
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/v1/live`;
  let ws: WebSocket | null = null;
  let tries = 0;
  let everOpen = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wanted = new Set<string>();

  const open = () => {
    if (stopped || document.hidden || ws) return;
    const socket = new WebSocket(url);
    ws = socket;
    socket.onopen = () => {
      // Marks the page as live (tests and curious people can see the socket is up).
      document.documentElement.dataset.live = "open";
      if (everOpen) onCatchUp();
      everOpen = true;
      tries = 0;
      for (const key of wanted) socket.send(message("subscribe", key));
    };
    socket.onmessage = (e) => {
      const frame = JSON.parse(String(e.data)) as Partial<LiveFrame>;
      if (frame.event && frame.stream) onFrame(frame as LiveFrame);
    };
    socket.onclose = () => {
      if (ws === socket) ws = null;
      delete document.documentElement.dataset.live;
      if (stopped || document.hidden) return;
      const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** tries++) * (0.5 + Math.random() / 2);
      timer = setTimeout(open, delay);
    };
  };

  const onVisibility = () => {
    clearTimeout(timer);
    if (!document.hidden) {
      tries = 0;
      open();
      return;
    }
    ws?.close(1000, "hidden");
    ws = null;
  };
  document.addEventListener("visibilitychange", onVisibility);
  open();

  return {
    follow(keys) {
      const next = new Set(keys);
      if (ws?.readyState === WebSocket.OPEN) {
        for (const key of wanted) if (!next.has(key)) ws.send(message("unsubscribe", key));
        for (const key of next) if (!wanted.has(key)) ws.send(message("subscribe", key));
      }
      wanted = next;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      ws?.close(1000, "gone");
      ws = null;
    },
  };
}
