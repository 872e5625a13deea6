import { eq } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { replies } from "../../db/schema/social";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { IdParam, ListQuery } from "../../lib/params";
import { federate, resolveMentions } from "../federation/federate";
import { chain, createReply, deleteReply, editReply, listReplies } from "./replies.service";
import { thread } from "./thread.service";

const Content = z
  .string({ error: "Please enter your reply." })
  .max(100_000, "Reply should be less than 500 characters long.");
const Parent = z.coerce
  .number({ error: "parent is required" })
  .int()
  .refine((n) => n !== 0 && Math.abs(n) <= Number.MAX_SAFE_INTEGER, "parent is not valid");

export const replyRoutes = new Hono<AppEnv>()
  .post("/", requireUser, body(z.object({ content: Content, parent: Parent })), async (c) => {
    const { content, parent } = c.req.valid("json");
    await resolveMentions(c, content);
    const reply = await createReply(c.var.db, me(c).id, parent, content);
    await federate(c, { notex: "reply", op: "create", uid: me(c).id, id: reply.id });
    return c.json(reply, 201);
  })
  .patch("/", requireUser, body(z.object({ id: IdParam.shape.id, content: Content })), async (c) => {
    const { id, content } = c.req.valid("json");
    await resolveMentions(c, content);
    const reply = await editReply(c.var.db, me(c).id, id, content);
    await federate(c, { notex: "reply", op: "update", uid: me(c).id, id });
    return c.json(reply);
  })
  .delete("/:id", requireUser, param(IdParam), async (c) => {
    const { parent } = await deleteReply(c.var.db, me(c).id, c.req.valid("param").id);
    await federate(c, { notex: "reply", op: "delete", uid: me(c).id, id: c.req.valid("param").id, parent });
    return c.json({ ok: true });
  })
  .get("/", query(ListQuery.extend({ pid: Parent })), async (c) => {
    const q = c.req.valid("query");
    return c.json(await listReplies(c.var.db, eq(replies.parent, q.pid), q, c.var.user?.id ?? null));
  })
  // The note page's conversation as a tree (thread.service.ts); `focus`: a reply to show in it.
  .get(
    "/thread",
    query(ListQuery.extend({ pid: Parent, focus: IdParam.shape.id.optional().catch(undefined) })),
    async (c) => {
      const q = c.req.valid("query");
      return c.json(await thread(c.var.db, q.pid, q, c.var.user?.id ?? null));
    },
  )
  .get("/:id/username/:username", param(IdParam.extend({ username: z.string().min(1).max(100) })), async (c) => {
    const { id, username } = c.req.valid("param");
    return c.json(await chain(c.var.db, id, username, c.var.user?.id ?? null));
  })
  .get("/:id/child", param(IdParam), query(ListQuery), async (c) =>
    c.json(
      await listReplies(
        c.var.db,
        eq(replies.parent, c.req.valid("param").id),
        c.req.valid("query"),
        c.var.user?.id ?? null,
      ),
    ),
  );
