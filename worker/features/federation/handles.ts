// What names a person on another server, and which of its addresses may be fetched: shared by the
// API, the search page and the image proxy (nothing from Fedify here, so none of them loads it).
import type { Env } from "../../env";

/**
 * A remote username as Mastodon accepts one (Account::USERNAME_RE): letters, digits and "_", with
 * "." or "-" only between them. Anything else (a path, a query, HTML, bidi controls, a newline, a
 * nested "@") is refused: such an actor is never stored, so no link or page can carry it.
 */
export const REMOTE_USERNAME = /^[a-z0-9_]+(?:[.-]+[a-z0-9_]+)*$/i;
const MAX_REMOTE_USERNAME = 100;
export const isRemoteUsername = (name: string) => name.length <= MAX_REMOTE_USERNAME && REMOTE_USERNAME.test(name);

/** A handle with a server (`name@host`, `@name@host`) or a profile URL (`https://host/@name`). */
export const isRemoteQuery = (q: string) => /^@?[^@\s/]+@[^@\s/]+$/.test(q) || /^https?:\/\/\S+$/i.test(q);

const PRIVATE_HOST =
  /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|\[|0\.|\d+\.\d+\.\d+\.\d+(:\d+)?$)/i;

/** Whether a URL may be fetched from this environment (SSRF rule; local mode federates over loopback). */
export function fetchable(env: Pick<Env, "APP_ENV">, url: URL): boolean {
  if (env.APP_ENV === "local") return url.protocol === "http:" || url.protocol === "https:";
  return url.protocol === "https:" && !PRIVATE_HOST.test(url.host);
}
