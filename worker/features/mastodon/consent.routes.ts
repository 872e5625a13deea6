// /v1 routes behind the consent page (/oauth/authorize) and Settings → Authorised apps: cookie
// sessions of the web app, so they live under /v1 with its same-origin check, never under /api.
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { type Answer, jsonBody, readBody, router, signedIn, typed } from "../../lib/validate";
import { approve, AuthorizeQuery, checkAuthorize, consentRead, redirectTo } from "./oauth.service";
import { readOne } from "../../db/reads";
import { endToken, listTokens } from "./tokens";

const Decision = AuthorizeQuery.extend({ decision: z.enum(["approve", "deny"]).default("approve") });

const ask = createRoute({
  method: "get",
  path: "/authorize",
  summary: "What an app asks for: its name, the scopes in words, where it goes back to",
  request: { query: AuthorizeQuery },
  responses: { 200: typed<Answer<typeof consentRead>>("The request, for the consent page") },
});
const decide = createRoute({
  method: "post",
  path: "/authorize",
  summary: "Approve or deny an app (approve answers the code and where to send it)",
  ...signedIn(readBody),
  request: { body: jsonBody(Decision) },
  responses: {
    200: typed<Answer<typeof approve> | { code: null; redirect: string | null }>("The code, or the denial"),
  },
});
const apps = createRoute({
  method: "get",
  path: "/apps",
  summary: "The apps you let in",
  ...signedIn(),
  responses: { 200: typed<{ apps: Answer<typeof listTokens> }>("Your authorised apps") },
});
const revoke = createRoute({
  method: "delete",
  path: "/apps/{id}",
  summary: "Take an app's access back",
  ...signedIn(),
  request: { params: z.object({ id: z.string().min(1).max(100) }) },
  responses: { 200: typed<Answer<typeof endToken>>("Revoked") },
});

export const consentRoutes = router()
  .openapi(ask, async (c) => c.json(await readOne(c.var.db, consentRead(c.var.db, c.req.valid("query"))), 200))
  .openapi(decide, async (c) => {
    const { decision, ...q } = c.req.valid("json");
    if (decision === "deny") {
      const { redirectUri } = await checkAuthorize(c.var.db, q);
      return c.json({ code: null, redirect: redirectTo(redirectUri, { error: "access_denied", state: q.state }) }, 200);
    }
    return c.json(await approve(c.var.db, me(c).id, q), 200);
  })
  .openapi(apps, async (c) => c.json({ apps: await listTokens(c.env, me(c).id) }, 200))
  .openapi(revoke, async (c) => c.json(await endToken(c.env, c.var.db, me(c).id, c.req.valid("param").id), 200));
