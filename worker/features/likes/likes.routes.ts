import { z } from "@hono/zod-openapi";
import { me } from "../../lib/session";
import { json, router } from "../../lib/validate";
import { toggleRoute } from "../interactions/interactions.routes";
import { like } from "./likes.service";
import { federateIf } from "../federation/federate";

const Liked = z.object({ liked: z.boolean(), likenum: z.number().int() });

const answer = json(Liked, "Whether you like it now, and its count");
const toggle = <M extends "post" | "delete">(method: M, summary: string) => toggleRoute(method, summary, answer);

export const likesRoutes = router()
  .openapi(toggle("post", "Like a note, reply or folder"), async (c) => {
    const { t: kind } = c.req.valid("query");
    const { liked, likenum, remote } = await like(c.var.db, me(c).id, kind, c.req.valid("param").id, true);
    // Only a post from another server is told of the like; people here see it live.
    if (kind === "note" || kind === "reply")
      await federateIf(c, remote, { notex: "like", op: "create", uid: me(c).id, kind, id: c.req.valid("param").id });
    return c.json({ liked, likenum }, 200);
  })
  .openapi(toggle("delete", "Take a like back"), async (c) => {
    const { t: kind } = c.req.valid("query");
    const { liked, likenum, remote } = await like(c.var.db, me(c).id, kind, c.req.valid("param").id, false);
    // Only a post from another server is told of the like; people here see it live.
    if (kind === "note" || kind === "reply")
      await federateIf(c, remote, { notex: "like", op: "delete", uid: me(c).id, kind, id: c.req.valid("param").id });
    return c.json({ liked, likenum }, 200);
  });
