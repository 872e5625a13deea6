import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { later } from "../../lib/later";
import { outbox } from "../../lib/mail";
import { clientIp, rateLimit } from "../../lib/ratelimit";
import { endCurrentSession, me } from "../../lib/session";
import { type Answer, json, jsonBody, readBody, router, signedIn, typed } from "../../lib/validate";
import { DeleteAccountInput, FORGOT_SENT, ForgotInput, OutboxQuery, ResetInput, TokenInput } from "./accounts.schema";
import { confirmEmail, requestConfirmation, resetPassword, sendReset, siteOrigin } from "./accounts.service";
import { checkDeletion, deleteAccount } from "./delete.service";
import { actionOf, tellServers } from "../federation/federate";
import { exportZip } from "./export.service";
import { endOne, endOthers, listSessions } from "./sessions.service";

/** RL_AUTH budget per client address (and per extra key, e.g. the account or the address asked about). */
const limit =
  (name: string, extra?: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await rateLimit(c.env.RL_AUTH, `${name}:${clientIp(c)}`);
    if (extra) await rateLimit(c.env.RL_AUTH, `${name}:${extra(c)}`);
    await next();
  };

// Any other text is simply not one of the person's sessions (404: no such key).
const SessionId = z.object({ id: z.string().max(100) });

const confirm = createRoute({
  method: "post",
  path: "/email/confirm",
  summary: "Send the email confirmation again",
  ...signedIn(limit("confirm", (c) => `u${me(c).id}`)),
  responses: { 200: typed<Answer<typeof requestConfirmation>>("Sent") },
});
const verify = createRoute({
  method: "post",
  path: "/email/verify",
  summary: "Confirm an email with the mailed token",
  middleware: [limit("verify"), readBody],
  request: { body: jsonBody(TokenInput) },
  responses: { 200: typed<Answer<typeof confirmEmail>>("Confirmed") },
});
const forgot = createRoute({
  method: "post",
  path: "/password/forgot",
  summary: "Mail a password reset link (the same answer whether or not the address is known)",
  middleware: [limit("forgot"), readBody],
  request: { body: jsonBody(ForgotInput) },
  responses: { 200: json(z.object({ ok: z.literal(true), message: z.string() }), "Sent, if the address is known") },
});
const reset = createRoute({
  method: "post",
  path: "/password/reset",
  summary: "Set a new password with the mailed token",
  middleware: [limit("reset"), readBody],
  request: { body: jsonBody(ResetInput) },
  responses: { 200: typed<Answer<typeof resetPassword>>("Changed") },
});
const sessions = createRoute({
  method: "get",
  path: "/sessions",
  summary: "Where you are signed in",
  ...signedIn(),
  responses: { 200: typed<{ sessions: Answer<typeof listSessions> }>("Your sessions") },
});
const endSession = createRoute({
  method: "delete",
  path: "/sessions/{id}",
  summary: "End one session (this one: a logout)",
  ...signedIn(),
  request: { params: SessionId },
  responses: { 200: typed<Answer<typeof endOne>>("Ended") },
});
const endOtherSessions = createRoute({
  method: "delete",
  path: "/sessions",
  summary: "End every other session",
  ...signedIn(),
  responses: { 200: typed<Answer<typeof endOthers>>("Ended") },
});
const exportAll = createRoute({
  method: "get",
  path: "/export",
  summary: "Everything you wrote, as a zip",
  ...signedIn(limit("export", (c) => `u${me(c).id}`)),
  responses: {
    200: {
      description: "The zip, streamed",
      content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } },
    },
  },
});
const deleteSelf = createRoute({
  method: "delete",
  path: "/users",
  summary: "Delete your account",
  ...signedIn(
    limit("delete", (c) => `u${me(c).id}`),
    readBody,
  ),
  request: { body: jsonBody(DeleteAccountInput) },
  responses: { 200: json(z.object({ deleted: z.literal(true) }), "Deleted") },
});
// Local only: the mail the app would have delivered. 404 everywhere else, as if it did not exist.
const localOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.env.APP_ENV !== "local") throw notFound("No such endpoint");
  await next();
};
const devOutbox = createRoute({
  method: "get",
  path: "/dev/outbox",
  summary: "The mail the app would have sent (local only)",
  middleware: localOnly,
  request: { query: OutboxQuery },
  responses: { 200: typed<{ messages: Answer<typeof outbox> }>("The messages to that address") },
});

export const accountRoutes = router()
  .openapi(confirm, async (c) =>
    c.json(await requestConfirmation(c.env, c.var.db, me(c).id, siteOrigin(c.env, c.req.url)), 200),
  )
  .openapi(verify, async (c) => c.json(await confirmEmail(c.var.db, c.req.valid("json").token), 200))
  .openapi(forgot, async (c) => {
    const { email } = c.req.valid("json");
    await rateLimit(c.env.RL_AUTH, `forgot-to:${email}`);
    // Found or not, the answer is the same and leaves at once; the lookup and mail run after it.
    await later(c, "password reset mail", () => sendReset(c.env, c.var.db, email, siteOrigin(c.env, c.req.url)));
    return c.json({ ok: true as const, message: FORGOT_SENT }, 200);
  })
  .openapi(reset, async (c) => {
    const { token, password } = c.req.valid("json");
    return c.json(await resetPassword(c.env, c.var.db, token, password), 200);
  })
  .openapi(sessions, async (c) => c.json({ sessions: await listSessions(c.env.SESSIONS, me(c).id, me(c).sid) }, 200))
  .openapi(endSession, async (c) => {
    const { id } = c.req.valid("param");
    const res = await endOne(c.env, c.var.db, me(c).id, id);
    // Ending the session in use is a logout: its cookie goes too.
    if (id === me(c).sid) await endCurrentSession(c);
    return c.json(res, 200);
  })
  .openapi(endOtherSessions, async (c) => c.json(await endOthers(c.env, me(c).id, me(c).sid), 200))
  .openapi(exportAll, async (c) => {
    const uid = me(c).id;
    const { username, stream } = await exportZip(c.env, c.var.db, uid, siteOrigin(c.env, c.req.url), (p) => {
      try {
        c.executionCtx.waitUntil(p);
      } catch {}
    });
    const day = new Date().toISOString().slice(0, 10);
    return new Response(stream, {
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="notex-${username || uid}-${day}.zip"`,
        "Cache-Control": "private, no-store",
      },
    });
  })
  .openapi(deleteSelf, async (c) => {
    const uid = me(c).id;
    await checkDeletion(c.var.db, uid, c.req.valid("json"));
    await deleteAccount(c.env, c.var.db, uid);
    // Every server that knows the account hears that it is gone (signed with the keys kept for it).
    await tellServers(actionOf(c), { notex: "account", op: "delete", uid });
    await endCurrentSession(c);
    return c.json({ deleted: true as const }, 200);
  })
  .openapi(devOutbox, async (c) => c.json({ messages: await outbox(c.var.db, c.req.valid("query").to) }, 200));
