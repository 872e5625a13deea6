import type { MiddlewareHandler } from "hono";
import { AppError } from "./errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Hono's csrf() skips JSON bodies, so every unsafe method is checked here: a browser request from
 * another origin (Origin header or Sec-Fetch-Site) is refused before it reaches a handler.
 * Requests with neither header come from non-browser clients, which cannot carry a victim's cookie.
 */
export const sameOrigin: MiddlewareHandler = async (c, next) => {
  if (!SAFE.has(c.req.method)) {
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    const own = new URL(c.req.url).origin;
    if (
      (origin && origin !== "null" && origin !== own) ||
      origin === "null" ||
      (site && site !== "same-origin" && site !== "none")
    ) {
      throw new AppError(403, "cross_origin", "Cross-origin request refused.");
    }
  }
  await next();
};
