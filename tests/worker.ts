// The production worker minus the Remix build (which vitest does not compile): same middleware, same /v1,
// same cron handler.
// One stand-in page, /probe, renders whoever the page handler resolved as the session (or "shell"),
// so the page cache's and the app shell's rules (tests/api/page-cache.test.ts, shell.test.ts) are
// tested through the real middleware.
import { createApp, scheduled } from "../worker/app";

const app = createApp(async (request, { cloudflare, shell }) => {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith("/probe")) return new Response("pages are tested by Playwright", { status: 404 });
  // Like every real page, it reads (one D1 trip) before it says who is signed in: the session
  // (read from KV before the page runs) names the account, the page reads its username.
  const uid = cloudflare.env.PAGE_USER?.id ?? 0;
  const row = shell
    ? null
    : await cloudflare.env.DB.prepare("select username from users where id = ?")
        .bind(uid)
        .first<{ username: string }>();
  // The app shell (worker/lib/shell.ts) is rendered for no one: it says so.
  const who = shell ? "shell" : (row?.username ?? "visitor");
  const type = pathname.endsWith(".data") ? "text/x-script" : "text/html";
  return new Response(`<p>signed in as ${who}</p>`, { headers: { "content-type": type } });
});

export default { fetch: app.fetch, scheduled };
