// ActivityPub beside the pages. A cheap test of the path and Accept header decides whether a request
// may be federation; only those load Fedify (a dynamic import: the bundle keeps it in a separate
// lazily evaluated module, so isolates serving pages never evaluate it). host-meta needs no Fedify.
// Inbound deliveries are capped at 1 MB, must prove their sender before anything else is done with
// them (inbox-guard.ts), and are rate-limited per verified sending server (RL_FED); what cannot be
// verified spends a small budget of its own per client address (RL_FED_UNVERIFIED).
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { readCapped } from "../../lib/capped";
import { clientIp } from "../../lib/ratelimit";
import { OBJECT_PAGE, siteOriginOf } from "./context";
import { isBlockedHost } from "./domains";

export const MAX_INBOUND_BYTES = 1_000_000;
const AP_PATH = /^\/(ap\/|\.well-known\/webfinger$)/;
const AP_TYPES = /application\/(activity\+json|ld\+json)/;

const hostMeta = (origin: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n  <Link rel="lrdd" template="${origin}/.well-known/webfinger?resource={uri}"/>\n</XRD>\n`;

/** The server the signature's key id names (draft-cavage keyId or RFC 9421 keyid), unverified: only to refuse a blocked one early. */
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
  if (pathname === "/authorize_interaction" && c.req.method === "GET") {
    const { authorizeInteraction } = await import("./interaction");
    return authorizeInteraction(c);
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
    // A server the moderators blocked: refused before its signature is checked (so none of its
    // documents is fetched). 403 rather than Mastodon's 202-and-drop: the sender learns that the
    // delivery will never be taken and stops retrying it (a 4xx is final for Mastodon and Fedify).
    if (host !== "unsigned" && (await isBlockedHost(c.env.DB, host)))
      return c.json({ code: "forbidden", message: "This server does not accept deliveries from yours" }, 403);
    const body = await readCapped(request.body, request.headers.get("content-length"), MAX_INBOUND_BYTES);
    if (!body) return c.json({ code: "too_large", message: "Activity larger than 1 MB" }, 413);
    request = new Request(request.url, { method: "POST", headers: request.headers, body });
    const { checkDelivery } = await import("./inbox-guard");
    const verdict = await checkDelivery(c.env, request, body);
    // The bench and e2e server give each request a client id of its own (as for every other limit).
    const client = c.env.TRUST_TEST_CLIENT_HEADER === "1" ? c.req.header("x-test-client") : undefined;
    const [binding, key] =
      "signer" in verdict
        ? [c.env.RL_FED, client ? `${verdict.signer}|t:${client}` : verdict.signer]
        : [c.env.RL_FED_UNVERIFIED, `u:${clientIp(c)}`];
    const limit = await binding?.limit({ key });
    if (limit && !limit.success) return c.json({ code: "rate_limited", message: "Too many deliveries" }, 429);
    if ("status" in verdict) {
      const code = verdict.status === 401 ? "unauthorized" : "bad_request";
      return c.json({ code, message: verdict.message }, verdict.status);
    }
  }
  const { serveFederation } = await import("./handler");
  const res = await serveFederation(request, c.env, negotiate);
  if (!res) return next();
  return res;
};
