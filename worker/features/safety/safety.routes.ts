import { $, createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { forbidden } from "../../lib/errors";
import { later } from "../../lib/later";
import { me } from "../../lib/session";
import { type Answer, jsonBody, personToggle, readBody, router, signedIn, typed } from "../../lib/validate";
import { idField, ListQuery, orElse } from "../../lib/params";
import { ACTIONS, isStaff, mailAccountDecision, type Role, roleOf, TARGET_KINDS } from "./moderation.service";
import { siteOrigin } from "../accounts/accounts.service";
import { listOf } from "./safety.service";
import { blockAction, muteAction } from "./block.action";
import { moderate } from "./moderate.action";
import { blockDomain, unblockDomain } from "../federation/domains";
import { domainBlocksRead, moderationLogRead, reportQueueRead } from "./moderation.reads";
import { readOne } from "../../db/reads";
import { siteOriginOf } from "../federation/context";
import { actionOf } from "../federation/federate";

/** Blocks or mutes: the person's list, and setting or lifting one (the same routes for both). */
const relationRoutes = (list: "blocks" | "mutes", set: typeof blockAction | typeof muteAction) => {
  const toggle = <M extends "post" | "delete">(method: M, summary: string) =>
    personToggle(method, summary, typed<Answer<typeof set>>("Whether it holds now"));
  const listed = createRoute({
    method: "get",
    path: "/",
    summary: `Your ${list}`,
    ...signedIn(),
    request: { query: ListQuery },
    responses: { 200: typed<Answer<typeof listOf>>("One page of people") },
  });
  return router()
    .openapi(listed, async (c) => c.json(await listOf(c.var.db, list, me(c).id, c.req.valid("query")), 200))
    .openapi(toggle("post", `Add someone to your ${list}`), async (c) =>
      c.json(await set(actionOf(c), me(c).id, c.req.valid("param").uid, true), 200),
    )
    .openapi(toggle("delete", `Take someone off your ${list}`), async (c) =>
      c.json(await set(actionOf(c), me(c).id, c.req.valid("param").uid, false), 200),
    );
};

export const blockRoutes = relationRoutes("blocks", blockAction);
export const muteRoutes = relationRoutes("mutes", muteAction);

/** Moderators and admins only: everyone else gets 403 (a visitor 401) before anything is read. */
async function staff(c: Context<AppEnv>): Promise<{ id: number; role: Role }> {
  const role = await roleOf(c.var.db, me(c).id);
  if (!isStaff(role)) throw forbidden();
  return { id: me(c).id, role };
}

const ActionInput = z.object({
  kind: z.enum(TARGET_KINDS, { error: "kind must be one of note, reply, company, project, skill, user" }),
  id: idField("id is required"),
  action: z.enum(ACTIONS, { error: "action must be one of dismiss, hide, restore, suspend, unsuspend" }),
  reason: z
    .string({ error: "Please give a reason." })
    .trim()
    .min(1, "Please give a reason.")
    .max(500, "Reason must be less than 500 characters."),
});

const DomainInput = z.object({
  domain: z
    .string({ error: "Please enter a server's domain." })
    .trim()
    .min(1, "Please enter a server's domain.")
    .max(253),
  reason: ActionInput.shape.reason,
});

const reports = createRoute({
  method: "get",
  path: "/reports",
  summary: "The report queue (open or closed)",
  ...signedIn(),
  request: { query: ListQuery.extend({ status: orElse(z.enum(["open", "closed"]), "open") }) },
  responses: { 200: typed<Answer<typeof reportQueueRead>>("One page of reported content") },
});
const action = createRoute({
  method: "post",
  path: "/actions",
  summary: "Dismiss, hide, restore, suspend or unsuspend",
  ...signedIn(readBody),
  request: { body: jsonBody(ActionInput) },
  responses: { 200: typed<Answer<typeof moderate>>("Done") },
});
const log = createRoute({
  method: "get",
  path: "/log",
  summary: "What moderators did",
  ...signedIn(),
  request: { query: ListQuery },
  responses: { 200: typed<Answer<typeof moderationLogRead>>("One page of the log") },
});
// Servers cut off from this one (worker/features/federation/domains.ts).
const domains = createRoute({
  method: "get",
  path: "/domains",
  summary: "Blocked servers",
  ...signedIn(),
  responses: { 200: typed<Answer<typeof domainBlocksRead>>("The blocked servers") },
});
const blockServer = createRoute({
  method: "post",
  path: "/domains",
  summary: "Block a server",
  ...signedIn(readBody),
  request: { body: jsonBody(DomainInput) },
  responses: { 200: typed<Answer<typeof blockDomain>>("Blocked") },
});
const unblockServer = createRoute({
  method: "delete",
  path: "/domains/{domain}",
  summary: "Lift a server's block",
  ...signedIn(),
  request: { params: z.object({ domain: z.string() }) },
  responses: { 200: typed<Answer<typeof unblockDomain>>("Lifted") },
});

// A write's role check comes before validation, so a non-moderator learns nothing about its
// inputs (a visitor: 401, from me()); a read checks the role in its own batch (moderation.reads.ts:
// one round trip).
export const moderationRoutes = $(
  router().use(async (c, next) => {
    if (c.req.method !== "GET") await staff(c);
    await next();
  }),
)
  .openapi(reports, async (c) => {
    const q = c.req.valid("query");
    return c.json(await readOne(c.var.db, reportQueueRead(c.var.db, me(c).id, q.status, q.page)), 200);
  })
  .openapi(action, async (c) => {
    const input = c.req.valid("json");
    const done = await moderate(actionOf(c), c.env, await staff(c), input);
    await later(c, "moderation mail", () => mailAccountDecision(c.env, c.var.db, input, siteOrigin(c.env, c.req.url)));
    return c.json(done, 200);
  })
  .openapi(log, async (c) =>
    c.json(await readOne(c.var.db, moderationLogRead(c.var.db, me(c).id, c.req.valid("query"))), 200),
  )
  .openapi(domains, async (c) => c.json(await readOne(c.var.db, domainBlocksRead(c.var.db, me(c).id)), 200))
  .openapi(blockServer, async (c) => {
    const { domain, reason } = c.req.valid("json");
    const own = new URL(siteOriginOf(c.env, c.req.url)).host;
    return c.json(await blockDomain(c.env.DB, me(c).id, domain, reason, own), 200);
  })
  .openapi(unblockServer, async (c) =>
    c.json(await unblockDomain(c.env.DB, me(c).id, c.req.valid("param").domain), 200),
  );
