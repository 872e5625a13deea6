// The production worker minus the Remix build (which vitest does not compile): same middleware, same /v1,
// same cron handler.
// One stand-in page, /probe, renders whoever the page handler resolved as the session (or "shell"),
// so the page cache's and the app shell's rules (tests/api/page-cache.test.ts, shell.test.ts) are
// tested through the real middleware.
import { createApp, queue, scheduled } from "../worker/app";
import { benchRecorder, benchTwin } from "../worker/bench/twins";
import type { Env } from "../worker/env";

// With the bench's D1 hook and twins, as worker/bench/entry.ts wires them (inert without BENCH_TWINS=1).
const app = createApp(
  async (request, { cloudflare, shell, user }) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith("/probe")) return new Response("pages are tested by Playwright", { status: 404 });
    // Like every real page, it reads (one D1 trip) before it says who is signed in: the session
    // (read from KV before the page runs) names the account, the page reads its username.
    const uid = user?.id ?? 0;
    const row = shell
      ? null
      : await cloudflare.env.DB.prepare("select username from users where id = ?")
          .bind(uid)
          .first<{ username: string }>();
    // The app shell (worker/lib/shell.ts) is rendered for no one: it says so.
    const who = shell ? "shell" : (row?.username ?? "visitor");
    const type = pathname.endsWith(".data") ? "text/x-script" : "text/html";
    return new Response(`<p>signed in as ${who}</p>`, { headers: { "content-type": type } });
  },
  { requestD1: benchRecorder },
);

/**
 * A test may set `interleave.beforeBatch` to run its own requests right before the next db.batch a
 * request sends (once): the moment between a write's reads and its batch, where a racing request
 * can land, made certain instead of hoped for.
 */
// On globalThis: the test's import of this module and the worker's own may be two instances.
const shared = globalThis as { interleave?: { beforeBatch: (() => Promise<void>) | null } };
shared.interleave ??= { beforeBatch: null };
export const interleave = shared.interleave;

function hooked<T extends D1Database | D1DatabaseSession>(db: T): T {
  return new Proxy(db, {
    get(target, prop) {
      // Requests read and write through a D1 session (worker/db/replicas.ts): hooked the same way.
      if (prop === "withSession")
        return (constraint?: string) => hooked((target as D1Database).withSession(constraint));
      const hook = interleave.beforeBatch;
      if (prop === "batch" && hook)
        return async (statements: D1PreparedStatement[]) => {
          interleave.beforeBatch = null;
          await hook();
          return target.batch(statements);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

export default {
  // Only a request sent while a hook is set runs on the hooked D1: every other one as in production.
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    benchTwin(request, env, ctx) ??
    app.fetch(request, interleave.beforeBatch ? { ...env, DB: hooked(env.DB) } : env, ctx),
  scheduled,
  queue,
};

export { LiveHub } from "../worker/features/live/hub";
