// The production worker minus the Remix build (which vitest does not compile): same middleware, same /v1,
// same cron handler.
// One stand-in page, /probe, renders whoever the page handler resolved as the session (or "shell"),
// so the page cache's and the app shell's rules (tests/api/page-cache.test.ts, shell.test.ts) are
// tested through the real middleware.
import { createApp, queue, scheduled } from "../worker/app";

const app = createApp(async (request, { cloudflare, shell }) => {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith("/probe")) return new Response("pages are tested by Playwright", { status: 404 });
  // Like every real page, it reads before it says who is signed in: a session checked in the
  // page's first round trip (lib/session.ts pageGate) has its username once that trip is back.
  if (!shell) await cloudflare.env.DB.prepare("select 1").all();
  // The app shell (worker/lib/shell.ts) is rendered for no one: it says so.
  const who = shell ? "shell" : (cloudflare.env.PAGE_USER?.username ?? "visitor");
  const type = pathname.endsWith(".data") ? "text/x-script" : "text/html";
  return new Response(`<p>signed in as ${who}</p>`, { headers: { "content-type": type } });
});

export default { fetch: app.fetch, scheduled, queue };
