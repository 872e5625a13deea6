// What every Mastodon route shares: bearer-only authentication (cookies are never read), scopes,
// request bodies in JSON, form or multipart, Mastodon's error shape and its Link paging header.
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import type { AppEnv, CurrentUser } from "../../env";
import { AppError, fieldErrors } from "../../lib/errors";
import type { OutEvent } from "../federation/context";
import { type ActionContext, actionOf, federate } from "../federation/federate";
import { holds } from "./scopes";
import { readToken, type TokenOwner } from "./tokens";

export type MastoEnv = { Bindings: AppEnv["Bindings"]; Variables: AppEnv["Variables"] & { token: TokenOwner | null } };
export type MastoContext = Context<MastoEnv>;

/** The site's origin as apps are told it (APP_ORIGIN, else the request's). */
export const originOf = (c: MastoContext) => c.env.APP_ORIGIN || new URL(c.req.url).origin;

/** OAuth's own error codes answer as RFC 6749 does (error + error_description); the rest as Mastodon: { error }. */
const OAUTH_CODES = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "invalid_scope",
  "invalid_redirect_uri",
  "access_denied",
]);

export function mastoError(err: Error, c: Context) {
  if (!(err instanceof AppError) && err.cause instanceof AppError) return mastoError(err.cause, c);
  if (err instanceof AppError) {
    if (OAUTH_CODES.has(err.code)) return c.json({ error: err.code, error_description: err.message }, err.status);
    return c.json({ error: err.message, ...(err.fields ? { details: err.fields } : {}) }, err.status);
  }
  if (err instanceof HTTPException)
    return c.json({ error: err.message || "Bad request" }, err.status as ContentfulStatusCode);
  console.error("unhandled", err);
  return c.json({ error: "Something went wrong, please try again." }, 500);
}

export const notFoundError = () => new AppError(404, "not_found", "Record not found");
export const tokenInvalid = () => new AppError(401, "unauthorized", "The access token is invalid");

/**
 * The bearer token, if any: an unknown or ended one is a 401 at once. Cookies are never consulted,
 * so a page a person has open can never be made to act here for them (CORS allows any origin).
 */
export const bearer: MiddlewareHandler<MastoEnv> = async (c, next) => {
  c.set("token", null);
  c.set("user", null);
  const header = c.req.header("authorization");
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const owner = m ? await readToken(c as unknown as Context<AppEnv>, m[1]) : null;
    if (!owner) throw tokenInvalid();
    c.set("token", owner);
    if (owner.user)
      c.set("user", { id: owner.user.id, sid: owner.user.sid, app: { ...owner.app, scopes: owner.scopes } });
  }
  await next();
};

/** What a write sends to the fediverse: the same queue message as the /v1 route's (federation/federate.ts). */
export const federated = (c: MastoContext, event: OutEvent) => federate(c as unknown as Context<AppEnv>, event);

/** The request's action context: an app's act runs the same action as /v1's (federation/federate.ts). */
export const acting = (c: MastoContext): ActionContext => actionOf(c as unknown as Context<AppEnv>);

/** The scope each guard asks for, so the OpenAPI document (worker/openapi.ts) names it. */
const guards = new WeakMap<MiddlewareHandler, { scope: string; visitors: boolean }>();
export const scopeOf = (handler: unknown) => guards.get(handler as MiddlewareHandler);

const outOfScope = () => new AppError(403, "forbidden", "This action is outside the authorized scopes");

/** A route for a signed-in person whose token holds `scope` (401 without a user token, 403 without the scope). */
export function scoped(scope: string): MiddlewareHandler<MastoEnv> {
  const guard: MiddlewareHandler<MastoEnv> = async (c, next) => {
    const token = c.var.token;
    if (!token?.user) throw new AppError(401, "unauthorized", "This method requires an authenticated user");
    if (!holds(token.scopes, scope)) throw outOfScope();
    await next();
  };
  guards.set(guard, { scope, visitors: false });
  return guard;
}

/** A public read: open to visitors, but a token sent must hold `scope`. */
export function readable(scope: string): MiddlewareHandler<MastoEnv> {
  const guard: MiddlewareHandler<MastoEnv> = async (c, next) => {
    const token = c.var.token;
    if (token && !holds(token.scopes, scope)) throw outOfScope();
    await next();
  };
  guards.set(guard, { scope, visitors: true });
  return guard;
}

/** The signed-in person, for handlers behind `scoped`. */
export function viewer(c: MastoContext): CurrentUser {
  const user = c.var.user;
  if (!user) throw new AppError(401, "unauthorized", "This method requires an authenticated user");
  return user;
}
export const viewerId = (c: MastoContext) => c.var.user?.id ?? null;

/** Form and query fields as Mastodon apps send them: `ids[]=1&ids[]=2` becomes `ids: ["1", "2"]`. */
function fold(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of entries) {
    const many = rawKey.endsWith("[]");
    const key = many ? rawKey.slice(0, -2) : rawKey;
    const prev = out[key];
    if (many || Array.isArray(prev))
      out[key] = [...(Array.isArray(prev) ? prev : prev === undefined ? [] : [prev]), value];
    else if (prev !== undefined) out[key] = [prev, value];
    else out[key] = value;
  }
  return out;
}

const MAX_BODY = 1024 * 1024;

/** The request's fields: JSON, urlencoded or multipart body merged over the query string. */
export async function fieldsOf(c: Context): Promise<Record<string, unknown>> {
  const query = fold(new URL(c.req.url).searchParams.entries());
  // A DELETE may carry a body too (apps send DELETE /api/v1/domain_blocks with a form), as Rails reads it.
  if (c.req.method === "GET" || c.req.method === "HEAD") return query;
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (Number(c.req.header("content-length") ?? 0) > MAX_BODY && !type.startsWith("multipart/"))
    throw new AppError(413, "too_large", "Request body is too large");
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    try {
      const form = await c.req.formData();
      return { ...query, ...fold(form.entries()) };
    } catch {
      throw new AppError(400, "bad_form", "The request body could not be read");
    }
  }
  const text = await c.req.text();
  if (!text.trim()) return query;
  try {
    const value = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error("not an object");
    return { ...query, ...value };
  } catch {
    throw new AppError(400, "bad_json", "The request body is not a JSON object");
  }
}

/** The request's fields checked by `schema`: 422 "Validation failed: ..." as Mastodon words it. */
export async function input<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const parsed = await schema.safeParseAsync(await fieldsOf(c));
  if (parsed.success) return parsed.data;
  const fields = fieldErrors(parsed.error);
  const [first] = Object.entries(fields);
  throw new AppError(
    422,
    "invalid_input",
    `Validation failed: ${first ? `${first[0]} ${first[1]}` : "invalid input"}`,
    fields,
  );
}

/** The query string checked by `schema` (400 on a bad one, as Mastodon's parameter errors). */
export async function queryOf<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const parsed = await schema.safeParseAsync(fold(new URL(c.req.url).searchParams.entries()));
  if (parsed.success) return parsed.data;
  const [first] = Object.entries(fieldErrors(parsed.error));
  throw new AppError(400, "invalid_input", first ? `${first[0]}: ${first[1]}` : "Invalid parameters");
}

/** Mastodon's default and largest page per kind of list (docs.joinmastodon.org/methods). */
const LIMITS = {
  statuses: { def: 20, max: 40 },
  accounts: { def: 40, max: 80 },
  notifications: { def: 40, max: 80 },
  search: { def: 20, max: 40 },
  domains: { def: 100, max: 200 },
} as const;

/**
 * A list's `limit` as Mastodon reads it: a number clamped into 1..max, the endpoint's default when
 * absent or not a number (Mastodon does the same rather than refuse).
 */
export function limitOf(c: Context, kind: keyof typeof LIMITS): number {
  const defaults = LIMITS[kind];
  const raw = new URL(c.req.url).searchParams.get("limit");
  const n = raw !== null && /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isFinite(n)) return defaults.def;
  return Math.min(Math.max(n, 1), defaults.max);
}

/**
 * Mastodon's Link header: `next` (older, max_id) and `prev` (newer, min_id) on the same path and
 * query, so an app pages with the ids it already holds.
 */
export function setLink(c: Context, older: string | null, newer: string | null) {
  const url = new URL(c.req.url);
  const links: string[] = [];
  for (const [rel, key, id] of [
    ["next", "max_id", older],
    ["prev", "min_id", newer],
  ] as const) {
    if (!id) continue;
    const u = new URL(url);
    for (const k of ["max_id", "min_id", "since_id"]) u.searchParams.delete(k);
    u.searchParams.set(key, id);
    links.push(`<${u.href}>; rel="${rel}"`);
  }
  if (links.length) c.header("Link", links.join(", "));
}
