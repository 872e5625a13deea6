import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { idField } from "../../lib/params";
import { me } from "../../lib/session";
import { json, jsonBody, readBody, router, signedIn } from "../../lib/validate";
import { CONTENT_KINDS } from "../content/content";
import { CONTROL_MESSAGE, hasControl, multiLine } from "../../lib/text";
import { REPORT_NOTE_MAX } from "./reports.constants";
import { actionOf } from "../federation/federate";
import { reportAction } from "./report.action";

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
  /** Optional, in the reporter's own words: what the moderators should know. */
  note: z
    .string()
    .default("")
    .transform(multiLine)
    .pipe(
      z
        .string()
        .max(REPORT_NOTE_MAX, `Please keep it under ${REPORT_NOTE_MAX} characters.`)
        .refine((s) => !hasControl(s), `note ${CONTROL_MESSAGE}`),
    ),
  /** Also block the author of what is reported. */
  block: z.boolean().default(false),
  /** Forward to the server the reported content came from (a checkbox's "on", or true). */
  forward: z
    .union([z.boolean(), z.string()])
    .optional()
    .transform((v) => v === true || v === "on" || v === "1" || v === "true"),
});

const Reported = z.object({ reported: z.literal(true), blocking: z.boolean() });

const file = createRoute({
  method: "post",
  path: "/",
  summary: "Report a note, reply or folder to the moderators",
  ...signedIn(readBody),
  request: { body: jsonBody(ReportInput) },
  responses: { 201: json(Reported, "Reported (and the author blocked, if asked)") },
});

export const reportRoutes = router().openapi(file, async (c) => {
  const { nid, kind, t, forward, note, block } = c.req.valid("json");
  const done = await reportAction(actionOf(c), me(c).id, [{ kind: t, id: nid }], kind, { note, block, forward });
  return c.json({ reported: true as const, blocking: done.blocking }, 201);
});
