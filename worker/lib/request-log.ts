// One JSON line per request for Workers Logs (issue 14): request id, route, status, time and D1
// round trips, queryable as fields in the dashboard. On outside APP_ENV=local, or with
// REQUEST_LOG=1 (tests); a laptop's terminal stays readable.
import type { Context } from "hono";
import type { D1Meter } from "../db/meter";

export interface RequestLine {
  t: "req";
  id: string;
  method: string;
  route: string;
  path: string;
  status: number;
  ms: number;
  d1: number;
  d1_ms: number;
  colo?: string;
}

export const logsRequests = (env: { APP_ENV?: string; REQUEST_LOG?: string }) =>
  env.APP_ENV !== "local" || env.REQUEST_LOG === "1";

/** Cloudflare's ray id when there is one (it ties the line to the edge's own logs). */
export const requestId = (req: Request) => req.headers.get("cf-ray") ?? crypto.randomUUID();

export function logRequest(c: Context, id: string, started: number, meter: D1Meter) {
  // The matched pattern (/v1/notes/:id), not the URL, so lines group by route; pages are "page".
  const route = c.req.routePath;
  const line: RequestLine = {
    t: "req",
    id,
    method: c.req.method,
    route: route === "*" || route === "/*" ? "page" : route,
    path: new URL(c.req.url).pathname,
    status: c.res.status,
    ms: Date.now() - started,
    d1: meter.trips,
    d1_ms: Math.round(meter.ms * 10) / 10,
    colo: (c.req.raw as { cf?: { colo?: string } }).cf?.colo,
  };
  console.log(JSON.stringify(line));
}
