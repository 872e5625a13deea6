// The one gate for every request this worker sends to a server it does not run (outside
// APP_ENV=local): WebFinger, actor and object documents (Fedify's document loader is built on it,
// federation/loaders.ts), remote images. Each hop is checked before it is sent: https, port 443 (or
// 80 written out), and every address the host resolves to is public unicast (no private, loopback,
// link-local, CGNAT, ULA, multicast, reserved, NAT64 or IPv4-mapped address). Redirects are
// followed by hand, each target checked again, at most MAX_REDIRECTS. Workers have no DNS API, so
// names are resolved with DNS over HTTPS (A and AAAA); the resolver and the per-hop sender are
// injectable, so tests stub them and a signed fetch can sign each hop.
import ipaddr from "ipaddr.js";
import type { Env } from "../env";

export const MAX_REDIRECTS = 3;
const PORTS = new Set(["", "443", "80"]);
const DOH = "https://cloudflare-dns.com/dns-query";

/** A host's addresses (A and AAAA). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface OutboundDeps {
  /** Resolves a name to its addresses: DNS over HTTPS unless a test or caller gives another. */
  resolve?: Resolver;
  /** Sends one hop (redirect: "manual"): plain fetch unless, say, a signed fetch gives its own. */
  send?: (request: Request) => Promise<Response>;
  maxRedirects?: number;
  /** Judges each hop before it is sent (checkTarget with `resolve` unless given). */
  check?: (url: URL) => Promise<void>;
}

/** Refused before anything was sent to that address. */
export class OutboundRefused extends Error {}

const DNS_TYPES = { A: 1, AAAA: 28 } as const;

/** Cloudflare's DNS-over-HTTPS JSON API, asked for A and AAAA at once (the resolver is a fixed public one). */
export const dohResolver: Resolver = async (hostname) => {
  const ask = async (type: keyof typeof DNS_TYPES) => {
    const url = `${DOH}?name=${encodeURIComponent(hostname)}&type=${type}`;
    const res = await fetch(url, { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new OutboundRefused(`DNS lookup of ${hostname} failed`);
    const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
    return (body.Answer ?? []).filter((a) => a.type === DNS_TYPES[type]).map((a) => a.data);
  };
  const [a, aaaa] = await Promise.all([ask("A"), ask("AAAA")]);
  return [...a, ...aaaa];
};

/** Public unicast only; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

/** Throws unless `url` may be fetched: https, an allowed port, a host whose every address is public. */
export async function checkTarget(url: URL, resolve: Resolver): Promise<void> {
  if (url.protocol !== "https:") throw new OutboundRefused(`Refused ${url.href}: only https is allowed`);
  if (!PORTS.has(url.port)) throw new OutboundRefused(`Refused ${url.href}: port ${url.port} is not allowed`);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = ipaddr.isValid(host) ? [host] : await resolve(host);
  if (!addresses.length || !addresses.every(isPublicAddress))
    throw new OutboundRefused(`Refused ${url.href}: not a public address`);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sends `request` through the gate, following redirects by hand (each hop checked again). Answers
 * the last hop's response and the URL it came from (the document's own address). Only GET and
 * HEAD follow redirects; anything else answers the 3xx as it came.
 */
export async function guardedHops(
  request: Request,
  deps: OutboundDeps = {},
): Promise<{ response: Response; url: URL }> {
  const check = deps.check ?? ((u: URL) => checkTarget(u, deps.resolve ?? dohResolver));
  const send = deps.send ?? ((r: Request) => fetch(r));
  const max = deps.maxRedirects ?? MAX_REDIRECTS;
  const follows = request.method === "GET" || request.method === "HEAD";
  let url = new URL(request.url);
  let hop = new Request(request, { redirect: "manual" });
  for (let n = 0; ; n++) {
    await check(url);
    const response = await send(hop);
    const location = response.headers.get("location");
    if (!follows || !REDIRECTS.has(response.status) || !location) return { response, url };
    await response.body?.cancel();
    if (n >= max) throw new OutboundRefused(`Refused ${request.url}: more than ${max} redirects`);
    if (!URL.canParse(location, url)) throw new OutboundRefused(`Refused ${request.url}: a bad redirect`);
    url = new URL(location, url);
    hop = new Request(url, {
      method: request.method,
      headers: request.headers,
      redirect: "manual",
      signal: request.signal,
    });
  }
}

/** `fetch` through the gate (see guardedHops). */
export const guardedFetch = async (request: Request, deps: OutboundDeps = {}) =>
  (await guardedHops(request, deps)).response;

/**
 * The gate for an environment: the full check outside APP_ENV=local; locally (instances federating
 * over plain http on loopback) only the scheme is judged, redirects still by hand.
 */
export const outboundFor = (env: Pick<Env, "APP_ENV">, deps: OutboundDeps = {}): OutboundDeps =>
  env.APP_ENV === "local"
    ? {
        ...deps,
        check: async (url) => {
          if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundRefused(`Refused ${url.href}`);
        },
      }
    : deps;
