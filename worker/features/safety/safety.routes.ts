import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv, DB } from "../../env";
import { forbidden } from "../../lib/errors";
import { later } from "../../lib/later";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { idField, ListQuery, UidParam } from "../../lib/params";
import { ACTIONS, act, isStaff, mailAccountDecision, type Role, roleOf, TARGET_KINDS } from "./moderation.service";
import { siteOrigin } from "../accounts/accounts.service";
import { block, listOf, mute } from "./safety.service";
import { blockDomain, unblockDomain } from "../federation/domains";
import { domainBlocksRead, moderationLogRead, reportQueueRead } from "./moderation.reads";
import { readOne } from "../../db/reads";
import { siteOriginOf } from "../federation/context";
import { federate } from "../federation/federate";

/** Blocks or mutes: the person's list, and setting or lifting one (the same routes for both). */
const relationRoutes = <R>(
  list: "blocks" | "mutes",
  set: (db: DB, me: number, uid: number, on: boolean) => Promise<R>,
  after: (c: Context<AppEnv>, uid: number, on: boolean) => Promise<void> = async () => {},
) =>
  new Hono<AppEnv>()
    .use(requireUser)
    .get("/", query(ListQuery), async (c) => c.json(await listOf(c.var.db, list, me(c).id, c.req.valid("query"))))
    .post("/:uid", param(UidParam), async (c) => {
      const done = await set(c.var.db, me(c).id, c.req.valid("param").uid, true);
      await after(c, c.req.valid("param").uid, true);
      return c.json(done);
    })
    .delete("/:uid", param(UidParam), async (c) => {
      const done = await set(c.var.db, me(c).id, c.req.valid("param").uid, false);
      await after(c, c.req.valid("param").uid, false);
      return c.json(done);
    });

// A block of someone on another server is told to their server (Block / Undo(Block)), as
// Mastodon does; a mute stays here (Mastodon does not federate mutes either).
export const blockRoutes = relationRoutes("blocks", block, (c, target, on) =>
  federate(c, { notex: "block", op: on ? "create" : "delete", uid: me(c).id, target }),
);
export const muteRoutes = relationRoutes("mutes", mute);

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

// A write's role check comes before validation, so a non-moderator learns nothing about its
// inputs; a read checks the role in its own batch (moderation.reads.ts: one round trip).
export const moderationRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .use(async (c, next) => {
    if (c.req.method !== "GET") await staff(c);
    await next();
  })
  .get("/reports", query(ListQuery.extend({ status: z.enum(["open", "closed"]).catch("open") })), async (c) => {
    const q = c.req.valid("query");
    return c.json(await readOne(c.var.db, reportQueueRead(c.var.db, me(c).id, q.status, q.page)));
  })
  .post("/actions", body(ActionInput), async (c) => {
    const input = c.req.valid("json");
    const done = await act(c.var.db, c.env.SESSIONS, await staff(c), input);
    await later(c, "moderation mail", () => mailAccountDecision(c.env, c.var.db, input, siteOrigin(c.env, c.req.url)));
    return c.json(done);
  })
  .get("/log", query(ListQuery), async (c) =>
    c.json(await readOne(c.var.db, moderationLogRead(c.var.db, me(c).id, c.req.valid("query")))),
  )
  // Servers cut off from this one (worker/features/federation/domains.ts).
  .get("/domains", async (c) => c.json(await readOne(c.var.db, domainBlocksRead(c.var.db, me(c).id))))
  .post("/domains", body(DomainInput), async (c) => {
    const { domain, reason } = c.req.valid("json");
    const own = new URL(siteOriginOf(c.env, c.req.url)).host;
    return c.json(await blockDomain(c.env.DB, me(c).id, domain, reason, own));
  })
  .delete("/domains/:domain", async (c) => c.json(await unblockDomain(c.env.DB, me(c).id, c.req.param("domain"))));
