// Read replicas (issue 14) through D1's Sessions API (`withSession`): not to be confused with the
// sign-in sessions of worker/lib/session.ts. Every request runs on one D1 session, so its reads may
// be served by a nearby replica while staying sequentially consistent within the request. The D1
// session's bookmark goes back to the person (the notex_d1b cookie for pages and the browser's own
// API calls, the x-d1-bookmark header for API clients) and comes in again on their next request,
// so a replica that has not yet caught up with their own last write is never used for them.
//
// Where a D1 session starts:
// - a write (any unsafe method): "first-primary": its checks (uniqueness, ownership, counters)
//   read the newest state, and the write itself goes to the primary anyway;
// - a read carrying a bookmark: that bookmark (read-your-writes);
// - any other read, visitor or signed in: "first-unconstrained", the nearest replica. Someone who
//   wrote nothing recently has nothing of their own to miss.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";

export const BOOKMARK_HEADER = "x-d1-bookmark";
export const BOOKMARK_COOKIE = "notex_d1b";
/** Replicas trail by well under a second; a bookmark older than this constrains nothing. */
const BOOKMARK_TTL_S = 5 * 60;
// D1 bookmarks are dash-separated hex groups; anything else is ignored rather than sent to D1.
const BOOKMARK = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){0,8}$/i;
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** The bookmark a request carries (header first, then cookie), if well formed. */
export function bookmarkOf(c: Context): string | null {
  const b = c.req.header(BOOKMARK_HEADER) ?? getCookie(c, BOOKMARK_COOKIE);
  return b && BOOKMARK.test(b) ? b : null;
}

/** The request's D1 session, started where the rules above say. */
export function d1SessionFor(c: Context, db: D1Database): D1DatabaseSession {
  if (!SAFE.has(c.req.method)) return db.withSession("first-primary");
  return db.withSession(bookmarkOf(c) ?? "first-unconstrained");
}

/**
 * Hands the D1 session's bookmark back: in the header of every API answer (/v1 and Mastodon's), and,
 * but for Mastodon's, as a cookie after a request that wrote (so the page the browser loads next
 * reads at least that state). "Wrote" is
 * an unsafe method or rows D1 reports written: a GET may write (the Google callback creates the
 * account it signs in). A read that wrote nothing sets no cookie, so visitor pages stay cacheable.
 */
export function returnBookmark(c: Context, session: D1DatabaseSession, rowsWritten: number, secure: boolean) {
  const bookmark = session.getBookmark();
  if (!bookmark) return;
  const path = new URL(c.req.url).pathname;
  if (path.startsWith("/v1/") || path.startsWith("/api/")) c.res.headers.set(BOOKMARK_HEADER, bookmark);
  // Mastodon's API is bearer-only: an app reads its writes by sending the header back, never a cookie.
  if (path.startsWith("/api/")) return;
  const wrote = !SAFE.has(c.req.method) || rowsWritten > 0;
  if (wrote && bookmark !== getCookie(c, BOOKMARK_COOKIE)) {
    c.res.headers.append(
      "Set-Cookie",
      `${BOOKMARK_COOKIE}=${bookmark}; Path=/; Max-Age=${BOOKMARK_TTL_S}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
    );
  }
}
