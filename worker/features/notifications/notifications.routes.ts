import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { query } from "../../lib/validate";
import { listNotifications, markRead, NotificationsQuery } from "./notifications.service";

export const notificationRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", query(NotificationsQuery), async (c) =>
    c.json(await listNotifications(c.var.db, me(c), c.req.valid("query"))),
  )
  // Spec 2: opening the list resets the unread count to 0 once it has loaded.
  .post("/read", async (c) => c.json(await markRead(c.var.db, me(c).id)));
