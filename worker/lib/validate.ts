// Request checks of the /v1 API: its routers, the one answer to refused input, and a JSON body read
// the way this API reads it; plus the small pieces every route declaration uses.
import { createRoute, type Hook, OpenAPIHono } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Read } from "../db/reads";
import type { AppEnv } from "../env";
import { AppError, invalid } from "./errors";
import { UidParam } from "./params";
import { requireUser } from "./session";

const MAX_BODY = 1024 * 1024;

type Schema = z.ZodType;

/** Reads the request body as a JSON object: bad JSON → 400, over 1 MB → 413, empty → {}. */
async function readJson(c: Context): Promise<Record<string, unknown>> {
  if (Number(c.req.header("content-length") ?? 0) > MAX_BODY) throw tooLarge();
  // Read from the request itself, not Hono's cache, so readBody's replacement is what is parsed next.
  const text = await c.req.raw.text();
  if (text.length > MAX_BODY) throw tooLarge();
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(400, "bad_json", "Request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError(400, "bad_json", "Request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

const tooLarge = () => new AppError(413, "too_large", "Request body is too large.");

/**
 * The `/v1` routers: `@hono/zod-openapi` validates each route's request from the zod schemas its
 * `createRoute` declares and describes the same schemas in `/v1/openapi.json` (worker/openapi.ts).
 * A failed check answers as the spec says: 422 with per-field messages for a body, 400 for a path
 * or a query. A route with its own wording passes its own hook (`wording`).
 */
export const router = () => new OpenAPIHono<AppEnv>({ defaultHook });

const defaultHook: Hook<unknown, AppEnv, string, undefined> = (result) => {
  if (!result.success) throw invalid(result.error, result.target === "json" ? 422 : 400);
};

/** The hook of a route whose refused input answers one message of its own (login keeps its one wording). */
export const wording =
  (message: string) =>
  <T>(result: Parameters<Hook<T, AppEnv, string, undefined>>[0]): undefined => {
    if (!result.success) throw invalid(result.error, result.target === "json" ? 422 : 400, message);
  };

/**
 * A JSON body checked by `schema`. The library's validator reads a body only when its Content-Type
 * says JSON (and answers 415 to any other), while this API judges a body by what it holds whatever
 * its type: `readBody` runs first (over 1 MB → 413, bad JSON → 400, empty → {}) and hands the
 * validator the object it read, typed as JSON.
 */
export const jsonBody = <T extends Schema>(schema: T) => ({
  required: true,
  content: { "application/json": { schema } },
});

export const readBody: MiddlewareHandler = async (c, next) => {
  const value = await readJson(c);
  const headers = new Headers(c.req.raw.headers);
  headers.set("content-type", "application/json");
  c.req.raw = new Request(c.req.raw, { headers, body: JSON.stringify(value) });
  await next();
};

/**
 * A JSON answer typed by the TypeScript type its handler returns (`typed<NoteJson>()`): the route's
 * schemas are where the pages' typed client (app/lib/api.server.ts) reads an answer's type, and the
 * document describes it as an object. Where a zod schema is as short, a route gives it (`json()`).
 */
export const typed = <T>(description = "Success") => json(z.custom<T>().openapi({ type: "object" }), description);

export const json = <T extends Schema>(schema: T, description = "Success") => ({
  description,
  content: { "application/json": { schema } },
});

/** A JSON answer as `json()` or `typed()` declare it: a helper taking one keeps its schema's type. */
export type Answered = { description: string; content: { "application/json": { schema: Schema } } };

/** What a service answers: the value of its promise, or of the read (db/reads.ts) it builds. */
export type Answer<F extends (...args: never[]) => unknown> =
  Awaited<ReturnType<F>> extends Read<infer T> ? T : Awaited<ReturnType<F>>;

/** The answer of a route that only says it is done. */
export const Ok = z.object({ ok: z.literal(true) });

/** What signed-in routes say in the document: the session cookie or a bearer token. */
export const SIGNED_IN: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];

/**
 * A route for signed-in people: the session guard runs first (then `also`, e.g. readBody), and the
 * document says which credentials it takes, from the same line.
 */
export const signedIn = (...also: MiddlewareHandler<AppEnv>[]) => ({
  middleware: [requireUser, ...also],
  security: SIGNED_IN,
});

/** POST (on) or DELETE (off) `/{uid}`, signed in: a relation with a person (follow, block, mute). */
export const personToggle = <M extends "post" | "delete", A extends Answered>(method: M, summary: string, answer: A) =>
  createRoute({
    method,
    path: "/{uid}",
    summary,
    ...signedIn(),
    request: { params: UidParam },
    responses: { 200: answer },
  });
