import type { AppLoadContext } from "@remix-run/cloudflare";
import { type ClientResponse, hc } from "hono/client";
import { type Api, api } from "../../worker/api";
import { pageRequest } from "../../worker/lib/session";
import { type ApiError, normalizeError } from "./errors";

export type ApiResult<T> =
  | { ok: true; status: number; data: T; setCookies: string[] }
  | { ok: false; status: number; error: ApiError; setCookies: string[] };

const FORWARD = ["cookie", "cf-connecting-ip", "x-test-client", "user-agent", "accept-language"];

const CALLS = new Set(["$get", "$post", "$put", "$patch", "$delete", "$url"]);

/**
 * The typed client with every call's `param` values encoded into their path segments. Hono's `hc`
 * puts them in as they are, so a username "../me" from a page's address would be read as a path
 * (`/v1/users/../me` is `/v1/me`); encoded, it is one segment naming no one. One place, for every
 * call: pages pass the text as the address gave it (decoded) and never encode it themselves.
 */
function encodingParams<T>(node: T): T {
  return new Proxy(node as object, {
    get(target, key, receiver) {
      const next = Reflect.get(target, key, receiver);
      if (typeof key !== "string") return next;
      if (!CALLS.has(key)) return encodingParams(next);
      return (args?: { param?: Record<string, unknown> }, ...rest: unknown[]) => {
        const param = args?.param
          ? Object.fromEntries(Object.entries(args.param).map(([k, v]) => [k, encodeURIComponent(String(v ?? ""))]))
          : undefined;
        return (next as (...a: unknown[]) => unknown)(param ? { ...args, param } : args, ...rest);
      };
    },
  }) as T;
}

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
    api.request(pageRequest(input, init, context.user ?? null), undefined, env, ctx);
  return {
    /**
     * A call the typed client cannot shape (a multipart upload): the same in-process API, the same
     * forwarded cookie.
     */
    raw: (path: string, init: RequestInit) => {
      const headers = new Headers(init.headers);
      for (const [k, v] of forwarded) if (!headers.has(k)) headers.set(k, v);
      return inProcess(new URL(path, request.url), { ...init, headers });
    },
    /**
     * The typed client (Hono's `hc` over the app's own type): paths, parameters, bodies and answers
     * are checked against worker/api.ts, so a renamed route or field fails the build. Wrap a call
     * in `result()` for the ApiResult every page handles. `param` values are encoded here
     * (encodingParams): pass text as it is, and an id as a string (an empty value drops its segment).
     */
    v1: encodingParams(
      hc<Api>(new URL(request.url).origin, {
        fetch: inProcess,
        headers: () => Object.fromEntries(forwarded),
      }).v1,
    ),
  };
}

export type PageApi = ReturnType<typeof apiFor>;

export async function resultOf<T>(res: Response): Promise<ApiResult<T>> {
  const setCookies = res.headers.getSetCookie();
  const data = await res.json().catch(() => null);
  if (!res.ok) return { ok: false, status: res.status, error: normalizeError(res.status, data), setCookies };
  return { ok: true, status: res.status, data: data as T, setCookies };
}

/** The answer a handler gives with a 2xx status, as its route declares it. */
type Success<R> = R extends ClientResponse<infer T, infer S, "json"> ? (S extends 200 | 201 ? T : never) : never;

/**
 * A typed call's answer as an ApiResult: the success body typed by the route, errors normalised.
 * `call` may be one of several calls (`a ? x.$post() : y.$delete()`): the answer is any of theirs.
 */
export async function result<P extends Promise<ClientResponse<unknown, number, "json">>>(
  call: P,
): Promise<ApiResult<Success<Awaited<P>>>> {
  return resultOf<Success<Awaited<P>>>((await call) as unknown as Response);
}

/** Loader helper: a typed call's data, or the error page (see `orThrow`). */
export async function load<P extends Promise<ClientResponse<unknown, number, "json">>>(call: P) {
  return orThrow(await result(call));
}

/**
 * Whether the page request has a live session: the worker resolved it once, with the same cookie
 * parser the API uses (lib/session.ts), so no page decides by reading the Cookie header itself.
 */
export const signedIn = (context: AppLoadContext) => !!context.user;

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
  // A 410 (a note its author deleted) stays a 410: the page says it was deleted.
  const status = [400, 404, 422].includes(r.status) ? 404 : r.status === 410 ? 410 : 500;
  throw new Response(r.error.message, { status });
}
