import { Hono } from "hono";
import { z } from "zod";
import { idField } from "../../lib/params";
import { reports } from "../../db/schema/social";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body } from "../../lib/validate";
import { CONTENT_KINDS, findTarget } from "../content/content";

const ReportInput = z.object({
  nid: idField("nid is required"),
  kind: z.coerce
    .number({ error: "Please select a reason." })
    .int()
    .min(1, "Please select a reason.")
    .max(5, "Please select a reason."),
  t: z
    .enum([...CONTENT_KINDS, "rep"])
    .default("note")
    .transform((t) => (t === "rep" ? "reply" : t)),
});

// One report per user per item: a repeat answers the same, and stores nothing new.
export const reportRoutes = new Hono<AppEnv>().use(requireUser).post("/", body(ReportInput), async (c) => {
  const { nid, kind, t } = c.req.valid("json");
  // A report is never refused across a block: the blocked may still tell moderators about abuse.
  await findTarget(c.var.db, t, nid, me(c).id);
  await c.var.db
    .insert(reports)
    .values({ userId: me(c).id, kind: t, targetId: nid, reason: kind })
    .onConflictDoNothing();
  return c.json({ reported: true }, 201);
});
