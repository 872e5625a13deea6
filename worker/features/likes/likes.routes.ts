import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { param, query } from "../../lib/validate";
import { IdParam } from "../../lib/params";
import { KindQuery } from "../content/content";
import { like } from "./likes.service";
import { federate } from "../federation/federate";

export const likesRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/:id", param(IdParam), query(KindQuery), async (c) => {
    const { t: kind } = c.req.valid("query");
    const { liked, likenum } = await like(c.var.db, me(c).id, kind, c.req.valid("param").id, true);
    if (kind === "note" || kind === "reply")
      await federate(c, { notex: "like", op: "create", uid: me(c).id, kind, id: c.req.valid("param").id });
    return c.json({ liked, likenum });
  })
  .delete("/:id", param(IdParam), query(KindQuery), async (c) => {
    const { t: kind } = c.req.valid("query");
    const { liked, likenum } = await like(c.var.db, me(c).id, kind, c.req.valid("param").id, false);
    if (kind === "note" || kind === "reply")
      await federate(c, { notex: "like", op: "delete", uid: me(c).id, kind, id: c.req.valid("param").id });
    return c.json({ liked, likenum });
  });
