// What names a person on another server, and which of its addresses may be fetched: shared by the
// API, the search page and the image proxy (nothing from Fedify here, so none of them loads it).
import type { Env } from "../../env";

/** A handle with a server (`name@host`, `@name@host`) or a profile URL (`https://host/@name`). */
export const isRemoteQuery = (q: string) => /^@?[^@\s/]+@[^@\s/]+$/.test(q) || /^https?:\/\/\S+$/i.test(q);

const PRIVATE_HOST =
  /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|\[|0\.|\d+\.\d+\.\d+\.\d+(:\d+)?$)/i;

/** Whether a URL may be fetched from this environment (SSRF rule; local mode federates over loopback). */
export function fetchable(env: Pick<Env, "APP_ENV">, url: URL): boolean {
  if (env.APP_ENV === "local") return url.protocol === "http:" || url.protocol === "https:";
  return url.protocol === "https:" && !PRIVATE_HOST.test(url.host);
}
