// /v1 routes behind the consent page (/oauth/authorize) and Settings → Authorised apps: cookie
// sessions of the web app, so they live under /v1 with its same-origin check, never under /api.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { approve, AuthorizeQuery, checkAuthorize, consentRead, redirectTo } from "./oauth.service";
import { readOne } from "../../db/reads";
import { endToken, listTokens } from "./tokens";

const Decision = AuthorizeQuery.extend({ decision: z.enum(["approve", "deny"]).default("approve") });

export const consentRoutes = new Hono<AppEnv>()
  .get("/authorize", query(AuthorizeQuery), async (c) =>
    c.json(await readOne(c.var.db, consentRead(c.var.db, c.req.valid("query")))),
  )
  .post("/authorize", requireUser, body(Decision), async (c) => {
    const { decision, ...q } = c.req.valid("json");
    if (decision === "deny") {
      const { redirectUri } = await checkAuthorize(c.var.db, q);
      return c.json({ code: null, redirect: redirectTo(redirectUri, { error: "access_denied", state: q.state }) });
    }
    return c.json(await approve(c.var.db, me(c).id, q));
  })
  .get("/apps", requireUser, async (c) => c.json({ apps: await listTokens(c.env, me(c).id) }))
  .delete("/apps/:id", requireUser, param(z.object({ id: z.string().min(1).max(100) })), async (c) =>
    c.json(await endToken(c.env, me(c).id, c.req.valid("param").id)),
  );
