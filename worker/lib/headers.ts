import { encodeBase64 } from "@oslojs/encoding";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

export function nonce(): string {
  return encodeBase64(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The consent page (/oauth/authorize) posts to itself and is answered with a redirect to the app's
 * registered URI, which form-action also governs. The page names that target in this header once
 * it has checked the request (a registered URI, matched exactly); the header never leaves the
 * worker. Without it (an unknown app, an unregistered URI) the form may only post to 'self'.
 */
export const FORM_TARGET_HEADER = "x-notex-form-target";

/** What form-action must allow for a checked redirect URI: its origin, or an app's own scheme. */
export function formTarget(uri: string): string {
  try {
    const to = new URL(uri);
    if (to.protocol === "https:" || to.protocol === "http:") return to.origin;
    return /^[a-z][a-z0-9+.-]*:$/.test(to.protocol) ? to.protocol : "";
  } catch {
    return "";
  }
}

/** The page's checked target (only the consent page may name one), taken off the response. */
function consentTarget(path: string, h: Headers): string {
  const target = h.get(FORM_TARGET_HEADER) ?? "";
  h.delete(FORM_TARGET_HEADER);
  return path === "/oauth/authorize" && target && formTarget(target) === target ? ` ${target}` : "";
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
  const formAction = `'self'${consentTarget(c.req.path, h)}`;
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
        `form-action ${formAction}`,
        "frame-ancestors 'none'",
      ].join("; "),
    );
  }
};
