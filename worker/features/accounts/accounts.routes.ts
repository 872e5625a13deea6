import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { later } from "../../lib/later";
import { outbox } from "../../lib/mail";
import { clientIp, rateLimit } from "../../lib/ratelimit";
import { endCurrentSession, me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { DeleteAccountInput, FORGOT_SENT, ForgotInput, OutboxQuery, ResetInput, TokenInput } from "./accounts.schema";
import { confirmEmail, requestConfirmation, resetPassword, sendReset, siteOrigin } from "./accounts.service";
import { checkDeletion, deleteAccount } from "./delete.service";
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

export const accountRoutes = new Hono<AppEnv>()
  .post(
    "/email/confirm",
    requireUser,
    limit("confirm", (c) => `u${me(c).id}`),
    async (c) => c.json(await requestConfirmation(c.env, c.var.db, me(c).id, siteOrigin(c.env, c.req.url))),
  )
  .post("/email/verify", limit("verify"), body(TokenInput), async (c) =>
    c.json(await confirmEmail(c.var.db, c.req.valid("json").token)),
  )
  .post("/password/forgot", limit("forgot"), body(ForgotInput), async (c) => {
    const { email } = c.req.valid("json");
    await rateLimit(c.env.RL_AUTH, `forgot-to:${email}`);
    // Found or not, the answer is the same and leaves at once; the lookup and mail run after it.
    await later(c, "password reset mail", () => sendReset(c.env, c.var.db, email, siteOrigin(c.env, c.req.url)));
    return c.json({ ok: true, message: FORGOT_SENT });
  })
  .post("/password/reset", limit("reset"), body(ResetInput), async (c) => {
    const { token, password } = c.req.valid("json");
    return c.json(await resetPassword(c.env, c.var.db, token, password));
  })
  .get("/sessions", requireUser, async (c) =>
    c.json({ sessions: await listSessions(c.env.SESSIONS, me(c).id, me(c).sid) }),
  )
  .delete("/sessions/:id", requireUser, param(SessionId), async (c) => {
    const { id } = c.req.valid("param");
    const res = await endOne(c.env.SESSIONS, me(c).id, id);
    // Ending the session in use is a logout: its cookie goes too.
    if (id === me(c).sid) await endCurrentSession(c);
    return c.json(res);
  })
  .delete("/sessions", requireUser, async (c) => c.json(await endOthers(c.env.SESSIONS, me(c).id, me(c).sid)))
  .get(
    "/export",
    requireUser,
    limit("export", (c) => `u${me(c).id}`),
    async (c) => {
      const uid = me(c).id;
      const { username, stream } = await exportZip(c.env, c.var.db, uid, (p) => {
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
    },
  )
  .delete(
    "/users",
    requireUser,
    limit("delete", (c) => `u${me(c).id}`),
    body(DeleteAccountInput),
    async (c) => {
      const uid = me(c).id;
      await checkDeletion(c.var.db, uid, c.req.valid("json"));
      await deleteAccount(c.env, c.var.db, uid);
      await endCurrentSession(c);
      return c.json({ deleted: true });
    },
  )
  // Local only: the mail the app would have delivered. 404 everywhere else, as if it did not exist.
  .get(
    "/dev/outbox",
    async (c, next) => {
      if (c.env.APP_ENV !== "local") throw notFound("No such endpoint");
      await next();
    },
    query(OutboxQuery),
    async (c) => c.json({ messages: await outbox(c.var.db, c.req.valid("query").to) }),
  );
