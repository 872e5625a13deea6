import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { param, query } from "../../lib/validate";
import { IdParam, ListQuery } from "../../lib/params";
import { KindQuery } from "../content/content";
import { bookmark, isBookmarked, listBookmarks } from "./bookmarks.service";

export const bookmarkRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", query(ListQuery.extend({ t: z.enum(["note", "rep", "reply"]).catch("note") })), async (c) =>
    c.json(await listBookmarks(c.var.db, me(c).id, c.req.valid("query"))),
  )
  .get("/:id", param(IdParam), query(KindQuery), async (c) =>
    c.json(await isBookmarked(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id)),
  )
  .post("/:id", param(IdParam), query(KindQuery), async (c) =>
    c.json(await bookmark(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, true)),
  )
  .delete("/:id", param(IdParam), query(KindQuery), async (c) =>
    c.json(await bookmark(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, false)),
  );
