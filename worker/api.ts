import { $ } from "@hono/zod-openapi";
import { dbFor } from "./db/client";
import { accountRoutes } from "./features/accounts/accounts.routes";
import { auth } from "./features/auth/auth.routes";
import { bookmarkRoutes } from "./features/bookmarks/bookmarks.routes";
import { folderRoutes } from "./features/folders/folders.routes";
import { importRoutes } from "./features/imports/imports.routes";
import { rowRoutes } from "./features/interactions/interactions.routes";
import { LIKES } from "./features/interactions/kinds";
import { moveRoutes } from "./features/moves/moves.routes";
import { followRoutes } from "./features/follows/follows.routes";
import { interestRoutes } from "./features/interests/interests.routes";
import { notificationRoutes } from "./features/notifications/notifications.routes";
import { replyRoutes } from "./features/replies/replies.routes";
import { blockRoutes, moderationRoutes, muteRoutes } from "./features/safety/safety.routes";
import { domainBlockRoutes } from "./features/safety/domain-blocks.routes";
import { reportRoutes } from "./features/reports/reports.routes";
import { searchRoutes } from "./features/search/search.routes";
import { consentRoutes } from "./features/mastodon/consent.routes";
import { mastodon } from "./features/mastodon/mastodon.routes";
import { feeds, notes, renotes } from "./features/notes/notes.routes";
import { uploadRoutes } from "./features/uploads/uploads.routes";
import { profileRoutes, users } from "./features/users/users.routes";
import { toErrorResponse } from "./lib/errors";
import { writeLimit } from "./lib/ratelimit";
import { authenticate } from "./lib/session";
import { readiness } from "./lib/readiness";
import { openApiDocument } from "./openapi";
import { router } from "./lib/validate";

// Built on the zod-openapi router so the features' declared routes (createRoute) reach the document.
export const api = $(
  router()
    .basePath("/v1")
    .use(async (c, next) => {
      c.set("db", dbFor(c.env.DB));
      c.header("Cache-Control", "no-store");
      await next();
    })
    .use(authenticate)
    .use(writeLimit)
    .get("/health", (c) => c.json({ ok: true }))
    .get("/health/ready", async (c) => {
      const checks = await readiness(c.env);
      const failing = Object.entries(checks).filter(([, v]) => v !== "ok");
      if (!failing.length) return c.json(checks);
      const names = failing.map(([k]) => k).join(", ");
      return c.json({ code: "not_ready", message: `Not ready: ${names}`, ...checks }, 503);
    })
    .route("/", auth)
    .route("/", accountRoutes)
    .route("/", users)
    .route("/", profileRoutes)
    .route("/notes", notes)
    .route("/renotes", renotes)
    .route(
      "/likes",
      rowRoutes(LIKES, {
        answer: "Whether you like it now, and its count",
        on: "Like a note, reply or folder",
        off: "Take a like back",
      }),
    )
    .route("/uploads", uploadRoutes)
    .route("/follows", followRoutes)
    .route("/interests", interestRoutes)
    .route("/folders", folderRoutes)
    .route("/imports", importRoutes)
    .route("/moves", moveRoutes)
    .route("/bookmarks", bookmarkRoutes)
    .route("/reports", reportRoutes)
    .route("/replies", replyRoutes)
    .route("/notifications", notificationRoutes)
    .route("/blocks", blockRoutes)
    .route("/mutes", muteRoutes)
    .route("/domain-blocks", domainBlockRoutes)
    .route("/moderation", moderationRoutes)
    .route("/search", searchRoutes)
    .route("/oauth", consentRoutes)
    .route("/", feeds)
    .notFound((c) => c.json({ code: "not_found", message: "No such endpoint" }, 404))
    .onError(toErrorResponse),
);

export type Api = typeof api;

// The document describes the app that serves it, so its route is added once the app exists (and
// stays out of the Api type: pages have no use for it).
api.get("/openapi.json", (c) => c.json(openApiDocument(api, mastodon)));
