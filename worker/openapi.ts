// The API describes itself: `@hono/zod-openapi` writes the OpenAPI 3.1 document from the routes'
// `createRoute` declarations, whose zod schemas are the ones it validates requests with, so it
// cannot drift from what the API does (decision 020). This module adds what every route shares
// (who may call it, the one error shape, the limits) and the Mastodon client API, whose routes are
// plain Hono under /api with a scope guard each, and the few plain /v1 routes no schema describes
// (health, this document, the signed upload PUT whose key holds slashes).
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Hono } from "hono";
import { scopeOf } from "./features/mastodon/masto.http";
import { requireUser } from "./lib/session";

type Json = Record<string, unknown>;
type AnyApp = Hono<any, any, any>;

/** Hono's `:name` (with an optional `{regex}`) becomes OpenAPI's `{name}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");

/** Every `:name` of a Hono path, as OpenAPI's required string parameter. */
const pathParameters = (path: string) =>
  [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
  }));

/** An operation's name and tag from its method and path, e.g. `postV1LikesId` in `likes`. */
const operationId = (method: string, path: string) =>
  `${method} ${path}`.replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ? c.toUpperCase() : ""));

const cache = new WeakMap<AnyApp, Json>();

/**
 * The Mastodon client API (worker/features/mastodon): each route with the OAuth scope its guard asks
 * for. Bodies and answers are Mastodon's (docs.joinmastodon.org), errors its `{ error }`.
 */
function mastodonPaths(app: AnyApp, paths: Record<string, Record<string, Json>>) {
  for (const r of app.routes) {
    if (r.method === "ALL" || r.path.endsWith("*")) continue;
    const path = openApiPath(r.path);
    const method = r.method.toLowerCase();
    const guard = app.routes
      .filter((x) => x.path === r.path && x.method === r.method)
      .map((x) => scopeOf(x.handler))
      .find(Boolean);
    const parameters = pathParameters(r.path);
    paths[path] ??= {};
    paths[path][method] ??= {
      operationId: operationId(`mastodon ${method}`, path),
      tags: ["mastodon"],
      ...(parameters.length ? { parameters } : {}),
      ...(guard ? { security: guard.visitors ? [{}, { oauth: [guard.scope] }] : [{ oauth: [guard.scope] }] } : {}),
      responses: {
        "2XX": { description: "Success (Mastodon's entities)", content: { "application/json": {} } },
        "4XX": { $ref: "#/components/responses/MastodonError" },
      },
    };
  }
}

/** The answers every operation shares: refused input, no session, too many requests. */
function refusals(op: Json): Json {
  const hasInput = (Array.isArray(op.parameters) && op.parameters.length > 0) || !!op.requestBody;
  return {
    ...(hasInput ? { "4XX": { $ref: "#/components/responses/Error" } } : {}),
    ...(op.security ? { "401": { $ref: "#/components/responses/Error" } } : {}),
    "429": { $ref: "#/components/responses/Error" },
  };
}

/** The plain routes (not declared with createRoute): their path parameters and who may call them. */
function plainPaths(app: AnyApp, paths: Record<string, Record<string, Json>>) {
  for (const r of app.routes) {
    const method = r.method.toLowerCase();
    if (r.method === "ALL" || paths[openApiPath(r.path)]?.[method]) continue;
    const parameters = pathParameters(r.path);
    const signedIn = app.routes.some((x) => x.path === r.path && x.method === r.method && x.handler === requireUser);
    paths[openApiPath(r.path)] ??= {};
    paths[openApiPath(r.path)][method] = {
      ...(parameters.length ? { parameters } : {}),
      ...(signedIn ? { security: [{ session: [] }, { bearer: [] }] } : {}),
      responses: { "2XX": { description: "Success", content: { "application/json": {} } } },
    };
  }
}

export function openApiDocument(app: OpenAPIHono<any, any, any>, mastodon?: AnyApp): Json {
  const known = cache.get(app);
  if (known) return known;
  const generated = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "NoteX API", version: "1" } });
  const paths = (generated.paths ?? {}) as Record<string, Record<string, Json>>;
  plainPaths(app, paths);
  for (const [path, ops] of Object.entries(paths))
    for (const [method, op] of Object.entries(ops)) {
      op.operationId ??= operationId(method, path);
      op.tags ??= [path.split("/")[2] || "api"];
      op.responses = { ...(op.responses as Json), ...refusals(op) };
    }
  if (mastodon) mastodonPaths(mastodon, paths);
  const doc = {
    openapi: "3.1.0",
    info: {
      title: "NoteX API",
      version: "1",
      description:
        "The API the NoteX pages call in process and any client may call over HTTP. Unsafe methods from another origin are refused (403). A reference page: /api-docs.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "notex_sid" },
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        // Mastodon apps: the consent page and token endpoint (PKCE S256), bearer tokens on /api.
        oauth: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: "/oauth/authorize",
              tokenUrl: "/oauth/token",
              scopes: {
                read: "Read everything",
                write: "Post and change",
                follow: "Follow, block, mute",
                push: "Push",
                profile: "Own profile",
              },
            },
            clientCredentials: { tokenUrl: "/oauth/token", scopes: { read: "Read public data" } },
          },
        },
      },
      schemas: {
        ...generated.components?.schemas,
        Error: {
          type: "object",
          required: ["code", "message"],
          properties: {
            code: { type: "string" },
            message: { type: "string" },
            fields: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
      responses: {
        MastodonError: {
          description: "Mastodon's error shape: { error } (OAuth errors add error_description)",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["error"],
                properties: { error: { type: "string" }, error_description: { type: "string" } },
              },
            },
          },
        },
        Error: {
          description: "The one error shape: a code, the spec's message, and per-field messages for a form",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    },
  };
  cache.set(app, doc);
  return doc;
}
