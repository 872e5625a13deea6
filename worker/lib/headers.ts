import { encodeBase64 } from "@oslojs/encoding";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

export function nonce(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The consent page (/oauth/authorize) posts to itself and is answered with a redirect to the app's
 * registered URI, which form-action also governs: the page allows that one origin (or app scheme).
 */
function consentTarget(href: string): string {
  const url = new URL(href);
  if (url.pathname !== "/oauth/authorize") return "";
  try {
    const to = new URL(url.searchParams.get("redirect_uri") ?? "");
    if (to.protocol === "https:" || to.protocol === "http:") return ` ${to.origin}`;
    return /^[a-z][a-z0-9+.-]*:$/.test(to.protocol) ? ` ${to.protocol}` : "";
  } catch {
    return "";
  }
}

/**
 * Security headers on every response. HTML pages get a CSP whose script-src is the per-request
 * nonce that entry.server stamps on Remix's scripts, so injected markup can never run.
 */
export const securityHeaders: MiddlewareHandler<AppEnv & { Variables: { nonce: string } }> = async (c, next) => {
  // Only pages carry scripts; the API's JSON needs no nonce (a random draw per call saved).
  if (!c.req.path.startsWith("/v1/")) c.set("nonce", nonce());
  await next();
  const h = c.res.headers;
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("X-Frame-Options", "DENY");
  if (c.env.APP_ENV !== "local") h.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  if ((h.get("content-type") ?? "").includes("text/html")) {
    const img = c.env.IMAGE_ORIGIN ? ` ${c.env.IMAGE_ORIGIN}` : "";
    h.set(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${c.var.nonce}' 'strict-dynamic'`,
        "style-src 'self' 'unsafe-inline'",
        `img-src 'self' data: blob:${img}`,
        "frame-src https://www.youtube-nocookie.com",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        `form-action 'self'${consentTarget(c.req.url)}`,
        "frame-ancestors 'none'",
      ].join("; "),
    );
  }
};
