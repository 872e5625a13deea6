import { Hono } from "hono";
import { z } from "zod";
import { idField } from "../../lib/params";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body } from "../../lib/validate";
import { CONTENT_KINDS } from "../content/content";
import { report } from "./reports.service";

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

export const reportRoutes = new Hono<AppEnv>().use(requireUser).post("/", body(ReportInput), async (c) => {
  const { nid, kind, t } = c.req.valid("json");
  return c.json(await report(c.var.db, me(c).id, t, nid, kind), 201);
});
