import type { AppLoadContext } from "@remix-run/cloudflare";
import { type ClientResponse, hc } from "hono/client";
import { type Api, api } from "../../worker/api";
import { type ApiError, normalizeError } from "./errors";

export type ApiResult<T> =
  | { ok: true; status: number; data: T; setCookies: string[] }
  | { ok: false; status: number; error: ApiError; setCookies: string[] };

const FORWARD = ["cookie", "cf-connecting-ip", "x-test-client", "user-agent", "accept-language"];

/**
 * The Hono API called in process (no network hop): the page's cookie goes along, so the API's
 * rules and ownership checks are the only ones there are.
 */
export function apiFor(request: Request, context: AppLoadContext) {
  const { env, ctx } = context.cloudflare;
  const forwarded = new Headers();
  for (const h of FORWARD) {
    const v = request.headers.get(h);
    if (v) forwarded.set(h, v);
  }
  // The page's own origin, so links the API builds (signed upload PUTs) point back at this site.
  const inProcess = (input: RequestInfo | URL, init?: RequestInit) =>
    api.request(input instanceof Request ? input : String(input), init, env, ctx);
  async function call<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const headers = new Headers(forwarded);
    if (body !== undefined) headers.set("content-type", "application/json");
    return resultOf<T>(
      await inProcess(new URL(`/v1${path}`, request.url).href, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  }
  return {
    /**
     * The typed client (Hono's `hc` over the app's own type): paths, parameters, bodies and answers
     * are checked against worker/api.ts, so a renamed route or field fails the build. Wrap a call
     * in `result()` for the ApiResult every page handles.
     */
    v1: hc<Api>(new URL(request.url).origin, {
      fetch: inProcess,
      headers: () => Object.fromEntries(forwarded),
    }).v1,
    get: <T>(path: string) => call<T>("GET", path),
    post: <T>(path: string, body?: unknown) => call<T>("POST", path, body ?? {}),
    patch: <T>(path: string, body?: unknown) => call<T>("PATCH", path, body ?? {}),
    delete: <T>(path: string, body?: unknown) => call<T>("DELETE", path, body),
  };
}

export type PageApi = ReturnType<typeof apiFor>;

async function resultOf<T>(res: Response): Promise<ApiResult<T>> {
  const setCookies = res.headers.getSetCookie();
  const data = await res.json().catch(() => null);
  if (!res.ok) return { ok: false, status: res.status, error: normalizeError(res.status, data), setCookies };
  return { ok: true, status: res.status, data: data as T, setCookies };
}

/** The answer a handler gives with a 2xx status, as its route declares it. */
type Success<R> = R extends ClientResponse<infer T, infer S, "json"> ? (S extends 200 | 201 ? T : never) : never;

/** A typed call's answer as an ApiResult: the success body typed by the route, errors normalised. */
export async function result<R extends ClientResponse<unknown, number, "json">>(
  call: Promise<R>,
): Promise<ApiResult<Success<R>>> {
  return resultOf<Success<R>>((await call) as unknown as Response);
}

/**
 * Whether the page request has a live session: the worker resolved it once, with the same cookie
 * parser the API uses (lib/session.ts), so no page decides by reading the Cookie header itself.
 */
export const signedIn = (context: AppLoadContext) => !!context.cloudflare.env.PAGE_USER;

/** Headers that carry the API's Set-Cookie lines through a Remix redirect or response. */
export function cookieHeaders(...results: { setCookies: string[] }[]): Headers {
  const h = new Headers();
  for (const r of results) for (const c of r.setCookies) h.append("Set-Cookie", c);
  return h;
}

/** Loader helper: data or a thrown Response the error boundary turns into the spec's 404/500 page. */
export function orThrow<T>(r: ApiResult<T>): T {
  if (r.ok) return r.data;
  // Spec 2: a detail call failing with 400, 404 or 422 is "not here"; anything else is a 500.
  const status = [400, 404, 422].includes(r.status) ? 404 : 500;
  throw new Response(r.error.message, { status });
}
