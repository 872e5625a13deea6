import type { AppLoadContext } from "@remix-run/cloudflare";

/**
 * One-read notices after a form post without JavaScript (issue 21 item 16): the action's redirect
 * sets a short-lived cookie, the next page shows its message and clears it. Before, the notice rode
 * in the address (`?published=<timestamp>`), where it stayed for reloads, bookmarks and shared links.
 * The cookie holds a code from this table, never text.
 */
const FLASHES = {
  published: "Your reply has been published",
  quoted: "Your quote has been posted",
  note_deleted: "Note deleted",
  reply_deleted: "Reply deleted",
  blocked: "Blocked. You will not see each other's notes any more.",
  unblocked: "Unblocked",
  muted: "Muted. Their notes stay out of your feeds and notifications.",
  unmuted: "Unmuted",
} as const;
export type Flash = keyof typeof FLASHES;

const NAME = "notex_flash";
const attrs = (context: AppLoadContext) =>
  `Path=/; HttpOnly; SameSite=Lax${context.cloudflare.env.APP_ENV === "local" ? "" : "; Secure"}`;

/** The Set-Cookie of a notice for the next page (a minute to arrive: it follows a redirect). */
export const flashCookie = (context: AppLoadContext, code: Flash) => `${NAME}=${code}; Max-Age=60; ${attrs(context)}`;

/**
 * The notice waiting for this page, if any: its message and the Set-Cookie that clears it (the
 * root loader sends it, so it is read once).
 */
export function takeFlash(request: Request, context: AppLoadContext) {
  const m = new RegExp(`(?:^|;\\s*)${NAME}=(\\w+)`).exec(request.headers.get("cookie") ?? "");
  if (!m) return null;
  const code = m[1];
  return {
    message: Object.hasOwn(FLASHES, code) ? FLASHES[code as Flash] : null,
    clear: `${NAME}=; Max-Age=0; ${attrs(context)}`,
  };
}
