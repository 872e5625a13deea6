import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { param, query } from "../../lib/validate";
import { IdParam } from "../../lib/params";
import { CONTENT_KINDS } from "../content/content";
import { like } from "./likes.service";

export const KindQuery = z.object({
  t: z
    .enum([...CONTENT_KINDS, "rep"], { error: "t must be one of note, reply, company, project, skill" })
    .default("note")
    .transform((t) => (t === "rep" ? "reply" : t)),
});

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
