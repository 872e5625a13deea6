// Shared by the sanitiser, the folder schema and the browser's Add Link dialog (no xss import here).

/** Spec 5: a link without a scheme gets http:// prepended; only http(s) and mailto survive. */
export function normaliseLink(raw: string): string | null {
  const href = raw.trim();
  if (!href) return null;
  // The scheme is judged as the browser's URL parser will read it: it drops tabs and newlines, so
  // "java\tscript:" is javascript:, and no scheme holds a space or a control character.
  const bare = [...href].filter((ch) => ch > " ").join("");
  if (/^(https?:|mailto:)/i.test(bare)) return href;
  if (/^[a-z][a-z0-9+.-]*:/i.test(bare)) return null; // javascript:, data:, vbscript: …
  // A site path only if the browser reads it as one: "/\host/" (or "/<tab>/host") is "//host", off-site.
  if (href.startsWith("/") && !href.startsWith("//")) return /^\/[/\\]/.test(bare) ? null : href;
  return `http://${href.replace(/^\/+/, "")}`;
}

/**
 * A username as a path segment (`name` or `name@host`): each part percent-encoded, "@" and ":" kept
 * (both are path characters, and a server's port is part of its host: `name@127.0.0.1:8862`), so no
 * stored handle can become a path, a query or a fragment of its own, and the link is the page's own
 * canonical address. Every link built from a username goes through it.
 */
export const userSegment = (username: string) =>
  username
    .split("@")
    .map((part) => encodeURIComponent(part).replaceAll("%3A", ":"))
    .join("@");
