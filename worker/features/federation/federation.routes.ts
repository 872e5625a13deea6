// ActivityPub beside the pages. A cheap test of the path and Accept header decides whether a request
// may be federation; only those load Fedify (a dynamic import: the bundle keeps it in a separate
// lazily evaluated module, so isolates serving pages never evaluate it). host-meta needs no Fedify.
// Inbound deliveries are capped at 1 MB and rate-limited per sending host (RL_FED).
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { readCapped } from "../../lib/capped";
import { siteOriginOf } from "./context";
import { isBlockedHost } from "./domains";

export const MAX_INBOUND_BYTES = 1_000_000;
const AP_PATH = /^\/(ap\/|\.well-known\/webfinger$)/;
const AP_TYPES = /application\/(activity\+json|ld\+json)/;
/** Page paths that also name an ActivityPub object: /{name}, /{name}/note/{id}, /{name}/rep/{id}. */
export const OBJECT_PAGE = /^\/([^/.@]+)(?:\/(note|rep)\/(\d+))?\/?$/;

const hostMeta = (origin: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n  <Link rel="lrdd" template="${origin}/.well-known/webfinger?resource={uri}"/>\n</XRD>\n`;

/** The sending server, from the signature's key id (draft-cavage keyId or RFC 9421 keyid). */
const senderHost = (req: Request) => {
  const sig = `${req.headers.get("signature") ?? ""} ${req.headers.get("signature-input") ?? ""}`;
  const m = /key[iI]d="https?:\/\/([^/"]+)/.exec(sig);
  return m ? m[1].toLowerCase() : "unsigned";
};

/** A Vary header that names Accept (once). */
const withAccept = (vary: string | null) =>
  !vary ? "Accept" : /(^|,)\s*accept\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept`;

export const federationRoutes: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { pathname } = new URL(c.req.url);
  if (pathname === "/.well-known/host-meta" && c.req.method === "GET") {
    return c.body(hostMeta(siteOriginOf(c.env, c.req.url)), 200, { "Content-Type": "application/xrd+xml" });
  }
  const path = AP_PATH.test(pathname);
  const negotiate = !path && c.req.method === "GET" && AP_TYPES.test(c.req.header("accept") ?? "");
  // The same URL answers HTML or ActivityPub JSON by Accept: caches must keep the two apart.
  if (c.req.method === "GET" && OBJECT_PAGE.test(pathname)) {
    const { serveFederation } = negotiate ? await import("./handler") : { serveFederation: null };
    const res = await serveFederation?.(c.req.raw, c.env, true);
    if (res) {
      res.headers.set("Vary", withAccept(res.headers.get("vary")));
      return res;
    }
    await next();
    c.header("Vary", withAccept(c.res.headers.get("vary")));
    return;
  }
  if (!path && !negotiate) return next();
  let request = c.req.raw;
  if (c.req.method === "POST") {
    const host = senderHost(request);
    // The bench and e2e server give each request a client id of its own (as for every other limit).
    const client = c.env.TRUST_TEST_CLIENT_HEADER === "1" ? c.req.header("x-test-client") : undefined;
    const limit = await c.env.RL_FED?.limit({ key: client ? `${host}|t:${client}` : host });
    if (limit && !limit.success) return c.json({ code: "rate_limited", message: "Too many deliveries" }, 429);
    // A server the moderators blocked: refused before its signature is checked (so none of its
    // documents is fetched). 403 rather than Mastodon's 202-and-drop: the sender learns that the
    // delivery will never be taken and stops retrying it (a 4xx is final for Mastodon and Fedify).
    if (host !== "unsigned" && (await isBlockedHost(c.env.DB, host)))
      return c.json({ code: "forbidden", message: "This server does not accept deliveries from yours" }, 403);
    const body = await readCapped(request.body, request.headers.get("content-length"), MAX_INBOUND_BYTES);
    if (!body) return c.json({ code: "too_large", message: "Activity larger than 1 MB" }, 413);
    request = new Request(request.url, { method: "POST", headers: request.headers, body });
  }
  const { serveFederation } = await import("./handler");
  const res = await serveFederation(request, c.env, negotiate);
  if (!res) return next();
  return res;
};
