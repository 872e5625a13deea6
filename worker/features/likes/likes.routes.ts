import { z } from "@hono/zod-openapi";
import { me } from "../../lib/session";
import { json, router } from "../../lib/validate";
import { toggleRoute } from "../interactions/interactions.routes";
import { actionOf } from "../federation/federate";
import { likeAction } from "./like.action";

const Liked = z.object({ liked: z.boolean(), likenum: z.number().int() });

const answer = json(Liked, "Whether you like it now, and its count");
const toggle = <M extends "post" | "delete">(method: M, summary: string) => toggleRoute(method, summary, answer);

export const likesRoutes = router()
  .openapi(toggle("post", "Like a note, reply or folder"), async (c) => {
    const target = { kind: c.req.valid("query").t, id: c.req.valid("param").id };
    const { liked, likenum } = await likeAction(actionOf(c), me(c).id, target, true);
    return c.json({ liked, likenum }, 200);
  })
  .openapi(toggle("delete", "Take a like back"), async (c) => {
    const target = { kind: c.req.valid("query").t, id: c.req.valid("param").id };
    const { liked, likenum } = await likeAction(actionOf(c), me(c).id, target, false);
    return c.json({ liked, likenum }, 200);
  });
