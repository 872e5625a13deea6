import { createRoute } from "@hono/zod-openapi";
import { me } from "../../lib/session";
import { type Answer, router, signedIn, typed } from "../../lib/validate";
import { listNotifications, markRead, NotificationsQuery } from "./notifications.service";

const list = createRoute({
  method: "get",
  path: "/",
  summary: "Your notifications (all, or mentions)",
  ...signedIn(),
  request: { query: NotificationsQuery },
  responses: { 200: typed<Answer<typeof listNotifications>>("One page of notifications") },
});
// Spec 2: opening the list resets the unread count to 0 once it has loaded.
const read = createRoute({
  method: "post",
  path: "/read",
  summary: "Mark every notification read",
  ...signedIn(),
  responses: { 200: typed<Answer<typeof markRead>>("The unread count, now 0") },
});

export const notificationRoutes = router()
  .openapi(list, async (c) => c.json(await listNotifications(c.var.db, me(c), c.req.valid("query")), 200))
  .openapi(read, async (c) => c.json(await markRead(c.var.db, me(c).id), 200));
