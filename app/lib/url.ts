import { hostOf, isRemoteName } from "../../worker/features/users/handle";
import { userSegment } from "../../worker/lib/links";

/** The current location with one query parameter set (or removed when value is null). */
export function withParam(location: { pathname: string; search: string }, key: string, value: string | null): string {
  const params = new URLSearchParams(location.search);
  if (value === null) params.delete(key);
  else params.set(key, value);
  const q = params.toString();
  return `${location.pathname}${q ? `?${q}` : ""}`;
}

// An origin no request can have: targets are resolved against it, so anything that leaves it
// (a host smuggled in with "//", "\\", tabs, newlines or dot segments) is not a path of this site.
const HOME = "https://notex.invalid";

/**
 * Where to return after a dialog, a form post or login (issue 20 §2): the target resolved the way
 * a browser would (tabs and newlines dropped, "\\" read as "/", dot segments removed), kept only if
 * it stays on this site, and answered in that normalised form — so no later parse can read a host
 * into it. Anything else is `fallback`.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  return returnPath(to, {}, fallback);
}

/** safeRedirect with query parameters set on the way back (an error code, a dialog to reopen). */
export function returnPath(
  to: FormDataEntryValue | string | null | undefined,
  params: Record<string, string>,
  fallback = "/",
): string {
  const s = typeof to === "string" ? to : "";
  let url: URL | null = null;
  try {
    url = s.startsWith("/") ? new URL(s, HOME) : null;
  } catch {}
  if (!url || url.origin !== HOME || /^\/[/\\]/.test(url.pathname)) url = new URL(fallback, HOME);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A person's profile page: `/{name}` here, `/@name@host` for someone on another server (users/handle.ts). */
export const profilePath = (username: string) =>
  isRemoteName(username) ? `/@${userSegment(username)}` : `/${userSegment(username)}`;

/** The server of someone on another server (`name@host` → host), or null for a local person. */
export const remoteHost = hostOf;

/** An address from another server that may become a link: http(s) only, never `javascript:` and the like. */
export const webLink = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined);
