// /v1/domain-blocks: the servers a person blocked for themself (domain-blocks.service.ts), listed a
// page at a time, blocked by name, lifted by name. The Settings page calls the same routes.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { ListQuery } from "../../lib/params";
import { type Answer, jsonBody, readBody, router, signedIn, typed } from "../../lib/validate";
import { siteOriginOf } from "../federation/context";
import { actionOf } from "../federation/federate";
import { blockServerAction } from "./domain-block.action";
import { hostOf, serversOf, unblockServer } from "./domain-blocks.service";

const DomainInput = z.object({
  domain: z
    .string({ error: "Please enter a server's domain." })
    .trim()
    .min(1, "Please enter a server's domain.")
    .max(253, "Please enter a server's domain."),
});

const listed = createRoute({
  method: "get",
  path: "/",
  summary: "The servers you blocked",
  ...signedIn(),
  request: { query: ListQuery },
  responses: { 200: typed<Answer<typeof serversOf>>("One page of servers, newest first") },
});
const block = createRoute({
  method: "post",
  path: "/",
  summary: "Block a whole server for yourself",
  ...signedIn(readBody),
  request: { body: jsonBody(DomainInput) },
  responses: { 200: typed<{ domain: string; blocking: boolean }>("Blocked") },
});
const unblock = createRoute({
  method: "delete",
  path: "/{domain}",
  summary: "Lift your block of a server",
  ...signedIn(),
  request: { params: z.object({ domain: z.string().max(300) }) },
  responses: { 200: typed<Answer<typeof unblockServer>>("Lifted") },
});

export const domainBlockRoutes = router()
  .openapi(listed, async (c) => c.json(await serversOf(c.var.db, me(c).id, c.req.valid("query")), 200))
  .openapi(block, async (c) => {
    const domain = hostOf(c.req.valid("json").domain, new URL(siteOriginOf(c.env, c.req.url)).host);
    await blockServerAction(actionOf(c), me(c).id, domain);
    return c.json({ domain, blocking: true }, 200);
  })
  .openapi(unblock, async (c) => c.json(await unblockServer(c.var.db, me(c).id, c.req.valid("param").domain), 200));
