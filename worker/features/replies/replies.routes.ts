import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { type Answer, json, jsonBody, Ok, readBody, router, signedIn, typed } from "../../lib/validate";
import { AddressParam, IdParam, ListQuery, orElse } from "../../lib/params";
import { actionOf } from "../federation/federate";
import { chain, getReply, listReplies, type ReplyJson } from "./replies.service";
import { deletePost } from "../notes/delete.action";
import { editReplyAction } from "../notes/edit.action";
import { replyAction } from "./reply.action";
import { thread } from "./thread.service";
import { answering, parentFromSpec } from "./parent";

const Content = z
  .string({ error: "Please enter your reply." })
  .max(100_000, "Reply should be less than 500 characters long.");
const Parent = z.coerce
  .number({ error: "parent is required" })
  .int()
  .refine((n) => n !== 0 && Math.abs(n) <= Number.MAX_SAFE_INTEGER, "parent is not valid");

const reply = createRoute({
  method: "post",
  path: "/",
  summary: "Reply to a note (the negative of its id as parent) or to a reply (its id)",
  ...signedIn(readBody),
  request: { body: jsonBody(z.object({ content: Content, parent: Parent })) },
  responses: { 201: typed<ReplyJson>("The new reply") },
});
const edit = createRoute({
  method: "patch",
  path: "/",
  summary: "Edit your reply",
  ...signedIn(readBody),
  request: { body: jsonBody(z.object({ id: IdParam.shape.id, content: Content })) },
  responses: { 200: typed<ReplyJson>("The reply as saved") },
});
const remove = createRoute({
  method: "delete",
  path: "/{id}",
  summary: "Delete your reply",
  ...signedIn(),
  request: { params: IdParam },
  responses: { 200: json(Ok, "Deleted") },
});
const list = createRoute({
  method: "get",
  path: "/",
  summary: "The replies to a note or reply",
  request: { query: ListQuery.extend({ pid: Parent }) },
  responses: { 200: typed<Answer<typeof listReplies>>("One page of replies") },
});
// The note page's conversation as a tree (thread.service.ts); `focus`: a reply to show in it.
const conversation = createRoute({
  method: "get",
  path: "/thread",
  summary: "A note's conversation as a tree",
  request: { query: ListQuery.extend({ pid: Parent, focus: orElse(IdParam.shape.id.optional(), undefined) }) },
  responses: { 200: typed<Answer<typeof thread>>("The first levels of the conversation") },
});
const ancestry = createRoute({
  method: "get",
  path: "/{id}/username/{username}",
  summary: "A reply at its address, with what it replies to",
  request: { params: AddressParam },
  responses: { 200: typed<Answer<typeof chain>>("The reply and its parents") },
});
const children = createRoute({
  method: "get",
  path: "/{id}/child",
  summary: "The replies to a reply",
  request: { params: IdParam, query: ListQuery },
  responses: { 200: typed<Answer<typeof listReplies>>("One page of replies") },
});

export const replyRoutes = router()
  .openapi(reply, async (c) => {
    const { content, parent } = c.req.valid("json");
    const { reply } = await replyAction(actionOf(c), me(c).id, parentFromSpec(parent), content);
    return c.json(reply, 201);
  })
  .openapi(edit, async (c) => {
    const { id, content } = c.req.valid("json");
    await editReplyAction(actionOf(c), me(c).id, id, content);
    return c.json(await getReply(c.var.db, id, me(c).id), 200);
  })
  .openapi(remove, async (c) => {
    await deletePost(actionOf(c), me(c).id, { kind: "reply", id: c.req.valid("param").id });
    return c.json({ ok: true as const }, 200);
  })
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    return c.json(await listReplies(c.var.db, answering(parentFromSpec(q.pid)), q, c.var.user?.id ?? null), 200);
  })
  .openapi(conversation, async (c) => {
    const q = c.req.valid("query");
    return c.json(await thread(c.var.db, parentFromSpec(q.pid), q, c.var.user?.id ?? null), 200);
  })
  .openapi(ancestry, async (c) => {
    const { id, username } = c.req.valid("param");
    return c.json(await chain(c.var.db, id, username, c.var.user?.id ?? null), 200);
  })
  .openapi(children, async (c) =>
    c.json(
      await listReplies(
        c.var.db,
        answering({ kind: "reply", id: c.req.valid("param").id }),
        c.req.valid("query"),
        c.var.user?.id ?? null,
      ),
      200,
    ),
  );
