import { type Context, Hono } from "hono";
import { api } from "./api";
import { dbFor } from "./db/client";
import { imageRoutes } from "./features/uploads/uploads.routes";
import type { AppEnv } from "./env";
import { sameOrigin } from "./lib/csrf";
import { toErrorResponse } from "./lib/errors";
import { securityHeaders } from "./lib/headers";
import { pageUser } from "./lib/session";
import { cachedPage } from "./lib/page-cache";
import { meteredD1, newMeter, serverTiming } from "./db/meter";

export type PageHandler = (request: Request, loadContext: PageLoadContext) => Promise<Response>;

export interface PageLoadContext {
  cloudflare: { env: AppEnv["Bindings"]; ctx: ExecutionContext };
  nonce: string;
}

type WorkerEnv = AppEnv & { Variables: { nonce: string } };

/** The one worker: security headers and the same-origin check on everything, /v1 to Hono, the rest to Remix. */
export function createApp(pages: PageHandler) {
  return (
    new Hono<WorkerEnv>()
      .use(async (c, next) => {
        // One meter per request, shared by the page's in-process API calls (they get this env).
        const meter = newMeter();
        c.env = { ...c.env, DB: meteredD1(c.env.DB, meter) };
        await next();
        c.res.headers.append("Server-Timing", serverTiming(meter));
      })
      .use(securityHeaders)
      .use(sameOrigin)
      .route("/", api as unknown as Hono<WorkerEnv>)
      .use("/img/*", async (c, next) => {
        c.set("db", dbFor(c.env.DB));
        await next();
      })
      .route("/", imageRoutes as unknown as Hono<WorkerEnv>)
      // The local outbox page exists only with APP_ENV=local (the API route checks the same).
      .all("/dev/*", async (c, next) => (c.env.APP_ENV === "local" ? next() : c.text("Not found", 404)))
      // An unknown /v1 path is an API 404 in JSON, never the HTML page of the catch-all below.
      .all("/v1/*", (c) => c.json({ code: "not_found", message: "No such endpoint" }, 404))
      .all("*", (c) =>
        cachedPage(c, async () => {
          // The session is resolved once here; every API call the page's loaders make reuses it.
          c.set("db", dbFor(c.env.DB));
          const user = await pageUser(c as unknown as Context<AppEnv>);
          const env = { ...c.env, PAGE_USER: user };
          const ctx = c.executionCtx as ExecutionContext;
          return { res: await pages(c.req.raw, { cloudflare: { env, ctx }, nonce: c.var.nonce }), signedIn: !!user };
        }),
      )
      .onError(toErrorResponse)
  );
}
