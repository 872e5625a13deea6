import { type Context, Hono, type MiddlewareHandler } from "hono";
import { api } from "./api";
import { dbFor } from "./db/client";
import { imageRoutes } from "./features/uploads/uploads.routes";
import { feedRoutes } from "./features/feeds/feeds.routes";
import { resumeRoutes } from "./features/resume/resume.routes";
import { sitemapRoutes } from "./features/sitemap/sitemap.routes";
import type { AppEnv, CurrentUser } from "./env";
import { sameOrigin } from "./lib/csrf";
import { toErrorResponse } from "./lib/errors";
import { securityHeaders } from "./lib/headers";
import { dropSessionCookie, pageSession } from "./lib/session";
import { cachedPage } from "./lib/page-cache";
import { meteredD1, newMeter, serverTiming } from "./db/meter";
import { d1SessionFor, returnBookmark } from "./db/replicas";
import { logRequest, logsRequests, requestId } from "./lib/request-log";
import { configProblems } from "./lib/secrets.js";
import { runCleanup } from "./features/cleanup/cleanup.service";
import { isShellRequest, noJsRedirect } from "./lib/shell";
import { NOJS_PATH } from "./lib/js-marker";
import { mastodon } from "./features/mastodon/mastodon.routes";
import { federationRoutes } from "./features/federation/federation.routes";
import { remoteImageRoutes } from "./features/federation/media";
import { withoutTrailingSlash } from "./lib/trailing-slash";
import { liveRoutes } from "./features/live/live.routes";

export type PageHandler = (request: Request, loadContext: PageLoadContext) => Promise<Response>;

export interface PageLoadContext {
  cloudflare: { env: AppEnv["Bindings"]; ctx: ExecutionContext };
  nonce: string;
  /** Render the app shell: the frame without anyone's data (lib/shell.ts). */
  shell: boolean;
  /** Who is signed in, read once before any loader runs (null: a visitor, or the shell). */
  user: CurrentUser | null;
}

type WorkerEnv = AppEnv & { Variables: { nonce: string } };

// Secrets are checked once per isolate and environment (the env object is the same per isolate).
const checked = new WeakMap<object, string[]>();
function misconfigured(env: AppEnv["Bindings"]): string[] {
  let problems = checked.get(env);
  if (!problems) {
    problems = configProblems(env as unknown as Record<string, unknown>);
    checked.set(env, problems);
    // One line per isolate naming what is wrong (never a value); every request then gets the 503.
    if (problems.length) console.error(JSON.stringify({ t: "misconfigured", problems }));
  }
  return problems;
}

/** Outside APP_ENV=local a missing, short or example secret stops everything (security issue 20). */
function refuse(c: Context<WorkerEnv>, id: string, problems: string[]) {
  return c.json(
    { code: "misconfigured", message: `NoteX is not configured to serve: ${problems.join("; ")}.`, request_id: id },
    503,
    { "Cache-Control": "no-store" },
  );
}

/**
 * Wraps a request's D1 (its session, before the meter) and, when it gives them, its other bindings,
 * and hears when the request is answered. The deployed worker has none; `npm run bench` starts
 * worker/bench/entry.ts, which records each request's D1 trips and platform calls for the row's
 * bare twin.
 */
export type RequestD1Hook = (
  request: Request,
  env: AppEnv["Bindings"],
  d1: D1Database,
) => { d1: D1Database; bindings?: Partial<AppEnv["Bindings"]>; keep(): void };

/** The one worker: security headers and the same-origin check on everything, /v1 to Hono, the rest to Remix. */
export function createApp(pages: PageHandler, hooks: { requestD1?: RequestD1Hook } = {}) {
  const app: Hono<WorkerEnv> = new Hono<WorkerEnv>()
    // A machine path with a trailing slash is answered as the same path without (lib/trailing-slash.ts).
    .use(async (c, next) => {
      const bare = withoutTrailingSlash(c.req.raw);
      if (bare) return app.fetch(bare, c.env, c.executionCtx);
      await next();
    });
  return (
    app
      .use(async (c, next) => {
        const started = Date.now();
        const id = requestId(c.req.raw);
        const problems = misconfigured(c.env);
        if (problems.length) return refuse(c, id, problems);
        // One D1 session (read replicas, db/replicas.ts) and one meter per request, shared by the
        // page's in-process API calls (they get this env): reads may come from a replica, never
        // older than the person's own writes.
        const meter = newMeter();
        const d1Session = d1SessionFor(c, c.env.DB);
        const hooked = hooks.requestD1?.(c.req.raw, c.env, d1Session as unknown as D1Database);
        c.env = {
          ...c.env,
          ...hooked?.bindings,
          DB: meteredD1(hooked?.d1 ?? (d1Session as unknown as D1Database), meter),
        };
        await next();
        hooked?.keep();
        // The meter's totals go out only locally (tests, bench, development): rows read can depend
        // on other people's data (how many they follow, like, are notified of), a side channel in
        // production. There the request log keeps them.
        if (c.env.APP_ENV === "local") c.res.headers.append("Server-Timing", serverTiming(meter));
        returnBookmark(c, d1Session, meter.written, c.env.APP_ENV !== "local");
        if (logsRequests(c.env)) logRequest(c, id, started, meter);
      })
      .use(securityHeaders)
      // Mastodon's API takes bearer tokens only (never a cookie), so it is open to any origin and
      // sits before the same-origin check the cookie routes need.
      .route("/", mastodon as unknown as Hono<WorkerEnv>)
      .use(sameOrigin)
      // ActivityPub (WebFinger, actors, inboxes, and pages asked for as activity+json) before the rest.
      .use(federationRoutes as unknown as MiddlewareHandler<WorkerEnv>)
      // A tab's live socket (cookie-signed, same origin only), beside /v1 but not a JSON route.
      .route("/", liveRoutes as unknown as Hono<WorkerEnv>)
      .route("/", api as unknown as Hono<WorkerEnv>)
      // Images from other servers, through this worker (federation/media.ts).
      .route("/", remoteImageRoutes as unknown as Hono<WorkerEnv>)
      .use("/img/*", async (c, next) => {
        c.set("db", dbFor(c.env.DB));
        await next();
      })
      .route("/", imageRoutes as unknown as Hono<WorkerEnv>)
      // The local outbox page exists only with APP_ENV=local (the API route checks the same).
      .all("/dev/*", async (c, next) => (c.env.APP_ENV === "local" ? next() : c.text("Not found", 404)))
      // Feeds, sitemaps and robots.txt: XML and text beside the pages, answered without Remix.
      .route("/", sitemapRoutes as unknown as Hono<WorkerEnv>)
      .route("/", feedRoutes as unknown as Hono<WorkerEnv>)
      .route("/", resumeRoutes as unknown as Hono<WorkerEnv>)
      // An unknown /v1 path is an API 404 in JSON, never the HTML page of the catch-all below.
      .all("/v1/*", (c) => c.json({ code: "not_found", message: "No such endpoint" }, 404))
      .get(NOJS_PATH, (c) => noJsRedirect(c.req.raw))
      .all("*", (c) => {
        // A signed-in browser with JavaScript gets the shared frame: no session lookup, no D1 at all.
        const shell = isShellRequest(c.req.raw);
        const render = (user: CurrentUser | null) =>
          pages(c.req.raw, {
            cloudflare: { env: c.env, ctx: c.executionCtx as ExecutionContext },
            nonce: c.var.nonce,
            shell,
            user,
          });
        return cachedPage(
          c,
          async () => {
            if (shell) return { res: await render(null), signedIn: false };
            // The session is read (KV) before any loader runs; every API call the page's loaders
            // make reuses it. A cookie naming no live session is one KV miss and a visitor's page.
            c.set("db", dbFor(c.env.DB));
            const page = c as unknown as Context<AppEnv>;
            const { user, stale } = await pageSession(page);
            const res = await render(user);
            return { res: stale ? dropSessionCookie(page, res) : res, signedIn: !!user };
          },
          shell,
        );
      })
      .onError(toErrorResponse)
  );
}

/**
 * The cron trigger (wrangler.toml [triggers]): the cleanup jobs, on a D1 session that starts at the
 * primary so a slot or row written a moment ago is never mistaken for missing. Locally:
 * `npx wrangler dev --test-scheduled`, then `curl http://127.0.0.1:8787/__scheduled`.
 */
export const scheduled = async (_controller: ScheduledController, env: AppEnv["Bindings"]) => {
  await runCleanup(env, dbFor(env.DB.withSession("first-primary") as unknown as D1Database));
  const { resumeStalled } = await import("./features/imports/jobs.consumer");
  await resumeStalled(env);
};

/**
 * The queue consumers (wrangler.toml [[queues.consumers]]): import jobs' chunks (features/imports),
 * and federation deliveries and inbound activities. Fedify is loaded here on demand, as for
 * ActivityPub requests.
 */
export const queue = async (batch: MessageBatch<unknown>, env: AppEnv["Bindings"]) => {
  if (batch.queue === IMPORT_QUEUE_NAME) {
    const { consumeImports } = await import("./features/imports/jobs.consumer");
    return consumeImports(batch, env);
  }
  const { consume } = await import("./features/federation/consumer");
  await consume(batch, env);
};

/** wrangler.toml's import queue (its own: a long import never waits behind deliveries, nor they behind it). */
export const IMPORT_QUEUE_NAME = "notex-imports";
