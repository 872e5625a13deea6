import type { AppLoadContext } from "@remix-run/cloudflare";
import { api } from "../../worker/api";
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
  async function call<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const headers = new Headers();
    for (const h of FORWARD) {
      const v = request.headers.get(h);
      if (v) headers.set(h, v);
    }
    if (body !== undefined) headers.set("content-type", "application/json");
    // The page's own origin, so links the API builds (signed upload PUTs) point back at this site.
    const res = await api.request(
      new URL(`/v1${path}`, request.url).href,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      env,
      ctx,
    );
    const setCookies = res.headers.getSetCookie();
    const data = await res.json().catch(() => null);
    if (!res.ok) return { ok: false, status: res.status, error: normalizeError(res.status, data), setCookies };
    return { ok: true, status: res.status, data: data as T, setCookies };
  }
  return {
    get: <T>(path: string) => call<T>("GET", path),
    post: <T>(path: string, body?: unknown) => call<T>("POST", path, body ?? {}),
    patch: <T>(path: string, body?: unknown) => call<T>("PATCH", path, body ?? {}),
    delete: <T>(path: string, body?: unknown) => call<T>("DELETE", path, body),
  };
}

export type Api = ReturnType<typeof apiFor>;

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
