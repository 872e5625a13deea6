import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { param, query } from "../../lib/validate";
import { IdParam } from "../../lib/params";
import { KindQuery } from "../content/content";
import { like } from "./likes.service";

export const likesRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/:id", param(IdParam), query(KindQuery), async (c) => {
    const { liked, likenum } = await like(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, true);
    return c.json({ liked, likenum });
  })
  .delete("/:id", param(IdParam), query(KindQuery), async (c) => {
    const { liked, likenum } = await like(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, false);
    return c.json({ liked, likenum });
  });
