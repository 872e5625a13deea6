import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { type Answer, personToggle, router, signedIn, typed } from "../../lib/validate";
import { ListQuery, UidParam } from "../../lib/params";
import { listFollows } from "./follows.service";
import { actionOf } from "../federation/federate";
import { followAction } from "./follow.action";
import { readOne } from "../../db/reads";
import { suggestionsRead } from "./suggestions.service";

const toggle = <M extends "post" | "delete">(method: M, summary: string) =>
  personToggle(method, summary, typed<Answer<typeof followAction>>("Following or not, now"));
// People to follow for the signed-in person (Home's first steps and empty Following read the same).
const suggestions = createRoute({
  method: "get",
  path: "/suggestions",
  summary: "People you might follow",
  ...signedIn(),
  responses: { 200: typed<{ users: Answer<typeof suggestionsRead> }>("A few people") },
});
// Any other word than these two is refused by the schema (400), as any bad parameter is.
const lists = createRoute({
  method: "get",
  path: "/{uid}/{which}",
  summary: "Whom a person follows, or who follows them",
  request: { params: UidParam.extend({ which: z.enum(["following", "followers"]) }), query: ListQuery },
  responses: { 200: typed<Answer<typeof listFollows>>("One page of people") },
});

export const followRoutes = router()
  .openapi(toggle("post", "Follow someone"), async (c) =>
    c.json(await followAction(actionOf(c), me(c).id, c.req.valid("param").uid, true), 200),
  )
  .openapi(toggle("delete", "Unfollow someone"), async (c) =>
    c.json(await followAction(actionOf(c), me(c).id, c.req.valid("param").uid, false), 200),
  )
  .openapi(suggestions, async (c) =>
    c.json({ users: await readOne(c.var.db, suggestionsRead(c.var.db, me(c).id)) }, 200),
  )
  .openapi(lists, async (c) => {
    const { uid, which } = c.req.valid("param");
    return c.json(await listFollows(c.var.db, uid, which, c.req.valid("query"), c.var.user?.id ?? 0), 200);
  });
