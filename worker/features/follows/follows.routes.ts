import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { param, query } from "../../lib/validate";
import { ListQuery, UidParam } from "../../lib/params";
import { follow, listFollows } from "./follows.service";
import { federate } from "../federation/federate";
import { readOne } from "../../db/reads";
import { suggestionsRead } from "./suggestions.service";

export const followRoutes = new Hono<AppEnv>()
  .post("/:uid", requireUser, param(UidParam), async (c) => {
    const done = await follow(c.var.db, me(c).id, c.req.valid("param").uid, true);
    await federate(c, { notex: "follow", op: "create", uid: me(c).id, target: c.req.valid("param").uid });
    return c.json(done);
  })
  .delete("/:uid", requireUser, param(UidParam), async (c) => {
    const done = await follow(c.var.db, me(c).id, c.req.valid("param").uid, false);
    await federate(c, { notex: "follow", op: "delete", uid: me(c).id, target: c.req.valid("param").uid });
    return c.json(done);
  })
  // People to follow for the signed-in person (Home's first steps and empty Following read the same).
  .get("/suggestions", requireUser, async (c) =>
    c.json({ users: await readOne(c.var.db, suggestionsRead(c.var.db, me(c).id)) }),
  )
  .get(
    "/:uid/:which{following|followers}",
    param(UidParam.extend({ which: z.enum(["following", "followers"]) })),
    query(ListQuery),
    async (c) => {
      const { uid, which } = c.req.valid("param");
      return c.json(await listFollows(c.var.db, uid, which, c.req.valid("query"), c.var.user?.id ?? 0));
    },
  );
