// Registering an app and trading a code for a token. The consent page itself is a Remix page at
// /oauth/authorize (app/routes/oauth.authorize.tsx); it calls /v1/oauth/authorize.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { clientIp, rateLimit } from "../../lib/ratelimit";
import { fieldsOf, input, type MastoEnv } from "./masto.http";
import {
  AppInput,
  appByClientId,
  appJsonOf,
  authenticateClient,
  createApp,
  exchange,
  oauthError,
  TokenInput,
} from "./oauth.service";
import { TOP_SCOPES } from "./scopes";
import { revokeSecret } from "./tokens";

/** client_secret_basic (RFC 6749 2.3.1): the id and secret in an Authorization: Basic header. */
function basicClient(header: string | undefined): { client_id?: string; client_secret?: string } {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!m) return {};
  try {
    const [id, secret] = atob(m[1]).split(":");
    return { client_id: decodeURIComponent(id ?? ""), client_secret: decodeURIComponent(secret ?? "") };
  } catch {
    return {};
  }
}

const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" };

/**
 * Budgets per client address, as Mastodon's rack-attack has them: RL_APPS for registering apps
 * (Mastodon: 5 per 10 minutes; a binding's period is at most 60 s, so 5 a minute), RL_OAUTH for
 * the token and revocation endpoints (30 a minute). 429 with the catalogue's words.
 */
const perClient =
  (binding: "RL_APPS" | "RL_OAUTH", name: string): MiddlewareHandler<MastoEnv> =>
  async (c, next) => {
    await rateLimit(c.env[binding], `${name}:${clientIp(c as unknown as Context<AppEnv>)}`);
    await next();
  };

// RFC 6749 2.3.1 and 4.1.3: credentials and grants go in the body (or Basic auth), never the URL,
// where logs, proxies and browser history keep them.
const SECRETS_IN_URL = ["client_secret", "code", "code_verifier", "password", "token", "refresh_token"];

const noSecretsInQuery: MiddlewareHandler<MastoEnv> = async (c, next) => {
  const query = new URL(c.req.url).searchParams;
  if (SECRETS_IN_URL.some((name) => query.has(name)))
    throw oauthError(
      400,
      "invalid_request",
      "Client secrets, codes and tokens go in the request body or an Authorization header, never in the URL.",
    );
  await next();
};

export const appRoutes = new Hono<MastoEnv>()
  .post("/api/v1/apps", perClient("RL_APPS", "apps"), async (c) =>
    c.json(await createApp(c.var.db, await input(c, AppInput))),
  )
  .get("/api/v1/apps/verify_credentials", async (c) => {
    const token = c.var.token;
    if (!token) throw new AppError(401, "unauthorized", "The access token is invalid");
    const app = await appByClientId(c.var.db, token.app.clientId);
    if (!app) throw new AppError(401, "unauthorized", "The access token is invalid");
    const { id, name, website, scopes, redirect_uri, redirect_uris, vapid_key } = appJsonOf(app);
    return c.json({ id, name, website, scopes, redirect_uri, redirect_uris, vapid_key });
  });

export const tokenRoutes = new Hono<MastoEnv>()
  .post("/oauth/token", perClient("RL_OAUTH", "token"), noSecretsInQuery, async (c) => {
    const fields = { ...basicClient(c.req.header("authorization")), ...(await fieldsOf(c)) };
    const parsed = TokenInput.safeParse(fields);
    if (!parsed.success)
      throw new AppError(400, "invalid_request", "The request is missing a required parameter or is malformed.");
    return c.json(await exchange(c.env, c.var.db, parsed.data), 200, noStore);
  })
  .post("/oauth/revoke", perClient("RL_OAUTH", "revoke"), noSecretsInQuery, async (c) => {
    const fields: Record<string, unknown> = { ...basicClient(c.req.header("authorization")), ...(await fieldsOf(c)) };
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    const app = await authenticateClient(c.var.db, str(fields.client_id), str(fields.client_secret));
    const token = str(fields.token);
    if (token && token.length <= 200) await revokeSecret(c.env, c.var.db, app, token);
    return c.json({}, 200, noStore);
  })
  // RFC 8414, as Mastodon 4.3 publishes it: apps discover the endpoints, PKCE and the scopes.
  .get("/.well-known/oauth-authorization-server", (c) => {
    const base = c.env.APP_ORIGIN || new URL(c.req.url).origin;
    return c.json({
      issuer: `${base}/`,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      app_registration_endpoint: `${base}/api/v1/apps`,
      scopes_supported: TOP_SCOPES,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "client_credentials"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
      service_documentation: "https://docs.joinmastodon.org/",
    });
  });
