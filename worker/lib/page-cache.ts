import type { Context } from "hono";
import type { AppEnv } from "../env";
import { SID_COOKIE } from "./session";
import { themeOf } from "./theme";

// Visitor pages served from the edge cache (issue 9 §6). Only GETs that cannot carry a session and
// 200 HTML answers rendered for no session that set no cookie are kept, for PAGE_TTL_S; everything
// signed in is private, whatever its type (HTML or Remix's .data).
// Each page carries the CSP nonce of the request that rendered it, so a cached copy gets the
// current request's nonce swapped in: a nonce is never shared between two responses.

export const PAGE_TTL_S = 30;
const NONCE_HEADER = "x-notex-nonce";

type PageContext = Context<AppEnv & { Variables: { nonce: string } }>;

/** A visitor's plain page view: the only kind of request the cache answers or fills. */
export function isVisitorPage(req: Request): boolean {
  if (req.method !== "GET") return false;
  const url = new URL(req.url);
  if (url.pathname.startsWith("/v1/") || url.pathname.startsWith("/actions/") || url.pathname.endsWith(".data")) {
    return false;
  }
  if (url.pathname.startsWith("/callback/")) return false;
  // Pages about one person's mail or links: the local outbox, a confirmation or reset link.
  if (url.pathname.startsWith("/dev/") || url.pathname === "/confirm" || url.pathname === "/reset") return false;
  return !mayCarrySession(req);
}

/**
 * Any spelling of the session cookie's name anywhere in the Cookie header (spaces or tabs before
 * `=`, quotes, duplicates, any case): a superset of what any cookie parser could read as a session,
 * so the cache never decides differently from the session lookup (issue 20 §1).
 */
export const mayCarrySession = (req: Request) => (req.headers.get("cookie") ?? "").toLowerCase().includes(SID_COOKIE);

/**
 * One copy per page address (path and query, as asked) and theme (the page is rendered with the
 * theme cookie's <html data-theme>), and the app shell (lib/shell.ts) a copy of its own per address
 * and theme: what the response varies on, and nothing else. The variant leads the key's path, in
 * fixed segments before the address, so no address a request can name (no query parameter, no path)
 * spells another variant's key: a visitor cannot fill the shell's or another theme's copy.
 */
const cacheKey = (req: Request, shell: boolean) => {
  const url = new URL(req.url);
  const theme = themeOf(req.headers.get("cookie"));
  return new Request(`${url.origin}/page-cache/${theme}/${shell ? "shell" : "page"}${url.pathname}${url.search}`, {
    method: "GET",
  });
};

/**
 * The answer from the cache: public to the edge for a visitor; for the shell (asked with a session
 * cookie) private to the browser, like every answer to a signed-in request. Marked hit or miss.
 */
function answer(body: string, from: Response, hit: boolean, shell: boolean): Response {
  const headers = new Headers(from.headers);
  headers.delete(NONCE_HEADER);
  headers.set("Cache-Control", shell ? "private, no-store" : `public, max-age=0, s-maxage=${PAGE_TTL_S}`);
  headers.set("X-Page-Cache", hit ? "hit" : "miss");
  return new Response(body, { status: from.status, headers });
}

/** A rendered page, and whether a session was resolved for it (then it is never shared). */
export interface Rendered {
  res: Response;
  signedIn: boolean;
}

/**
 * Answers a visitor page, or the app shell (`shell`: lib/shell.ts), from the cache, or renders it and
 * keeps a copy; others pass through.
 */
export async function cachedPage(c: PageContext, render: () => Promise<Rendered>, shell = false): Promise<Response> {
  if (!(shell || isVisitorPage(c.req.raw)) || typeof caches === "undefined") return privately(await render());
  const cache = (caches as unknown as { default: Cache }).default;
  const key = cacheKey(c.req.raw, shell);
  const hit = await cache.match(key);
  if (hit) {
    // The copy carries the nonce of the request that rendered it; this response gets its own.
    const old = hit.headers.get(NONCE_HEADER) ?? "";
    const body = await hit.text();
    return answer(old ? body.replaceAll(old, c.var.nonce) : body, hit, true, shell);
  }
  const rendered = await render();
  const { res } = rendered;
  const html = (res.headers.get("content-type") ?? "").includes("text/html");
  if (rendered.signedIn || res.status !== 200 || !html || res.headers.has("set-cookie")) return privately(rendered);
  const body = await res.text();
  const stored = new Response(body, { status: 200, headers: res.headers });
  stored.headers.set(NONCE_HEADER, c.var.nonce);
  stored.headers.set("Cache-Control", `public, max-age=${PAGE_TTL_S}`);
  c.executionCtx.waitUntil(cache.put(key, stored));
  return answer(body, res, false, shell);
}

/** Signed-in answers of any type, and uncacheable pages, never leave the browser's private cache. */
function privately({ res, signedIn }: Rendered): Response {
  if (!signedIn && !(res.headers.get("content-type") ?? "").includes("text/html")) return res;
  const out = new Response(res.body, res);
  out.headers.set("Cache-Control", "private, no-store");
  return out;
}
