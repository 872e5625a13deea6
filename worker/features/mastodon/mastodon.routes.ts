// The Mastodon client API (/api/v1, /api/v2, /oauth/token, /oauth/revoke) beside /v1: the same
// services, Mastodon's shapes. Bearer tokens only, CORS for any origin, errors as { error }.
import { BOOKMARK_HEADER } from "../../db/replicas";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { dbFor } from "../../db/client";
import { writeLimit } from "../../lib/ratelimit";
import { accountRoutes } from "./accounts.routes";
import { streamingRoutes } from "../live/streaming.routes";
import { instanceRoutes } from "./instance.routes";
import { mediaRoutes } from "./media.routes";
import { bearer, type MastoEnv, mastoError } from "./masto.http";
import { appRoutes, tokenRoutes } from "./oauth.routes";
import { notificationRoutes } from "./notifications.routes";
import { nodeInfoRoutes } from "./nodeinfo.routes";
import { peopleRoutes } from "./people.routes";
import { probeRoutes } from "./probes.routes";
import { domainBlockRoutes } from "./domain-blocks.routes";
import { statusRoutes } from "./statuses.routes";
import { timelineRoutes } from "./timelines.routes";

/** Mastodon's budget words: apps pace themselves by these (the write budget is RL_WRITE's). */
const WRITE_LIMIT = 60;
const WRITE_WINDOW_S = 10;

const corsed = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", BOOKMARK_HEADER],
  exposeHeaders: [
    "Link",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "Idempotency-Key",
    BOOKMARK_HEADER,
  ],
  maxAge: 86400,
  credentials: false,
});

export const mastodon = new Hono<MastoEnv>()
  .use("/api/*", corsed)
  .use("/oauth/token", corsed)
  .use("/oauth/revoke", corsed)
  .use("/.well-known/oauth-authorization-server", corsed)
  .use("/.well-known/nodeinfo", corsed)
  .use("/nodeinfo/*", corsed)
  .use("/api/*", async (c, next) => {
    c.set("db", dbFor(c.env.DB));
    c.header("Cache-Control", "no-store");
    await next();
    c.res.headers.set("X-RateLimit-Limit", String(WRITE_LIMIT));
    c.res.headers.set(
      "X-RateLimit-Reset",
      new Date(Math.ceil(Date.now() / 1000 + WRITE_WINDOW_S) * 1000).toISOString(),
    );
    if (c.res.status === 429) c.res.headers.set("X-RateLimit-Remaining", "0");
  })
  .use("/oauth/token", async (c, next) => {
    c.set("db", dbFor(c.env.DB));
    await next();
  })
  .use("/oauth/revoke", async (c, next) => {
    c.set("db", dbFor(c.env.DB));
    await next();
  })
  .use("/api/*", bearer)
  .use("/api/*", writeLimit as unknown as Parameters<Hono<MastoEnv>["use"]>[1])
  .route("/", instanceRoutes)
  .route("/", streamingRoutes)
  .route("/", appRoutes)
  .route("/", tokenRoutes)
  .route("/", statusRoutes)
  .route("/", mediaRoutes)
  .route("/", timelineRoutes)
  // Before accountRoutes: /accounts/search is not an account id.
  .route("/", peopleRoutes)
  .route("/", accountRoutes)
  .route("/", notificationRoutes)
  .route("/", domainBlockRoutes)
  .route("/", probeRoutes)
  .route("/", nodeInfoRoutes)
  // Anything else under /api is Mastodon's 404, in JSON, never a page.
  .all("/api/*", (c) => c.json({ error: "Record not found" }, 404))
  .onError(mastoError);
