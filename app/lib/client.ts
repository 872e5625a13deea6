// The browser's way to call /v1 (progressive enhancement only; every page works without it).
// Bearer token in memory; a 401 refreshes once from the session cookie and retries, a second 401
// clears the "notex" record. GETs are cached 5 minutes and retried 3 times with exponential delay
// capped at 30 s; writes are never retried blindly.
import type { hc, InferResponseType } from "hono/client";
import type { Api } from "../../worker/api";
import { type ApiError, normalizeError } from "./errors";
import { clearRecord } from "./record";

const CACHE_MS = 5 * 60 * 1000;
const RETRIES = 3;
let token: string | null = null;
const cache = new Map<string, { at: number; data: unknown }>();

export const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ClientError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

async function refresh(): Promise<boolean> {
  const res = await fetch("/v1/refresh", { credentials: "same-origin" });
  if (!res.ok) return false;
  token = ((await res.json()) as { token: string }).token;
  return true;
}

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  return fetch(`/v1${path}`, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function authed(method: string, path: string, body?: unknown): Promise<Response> {
  let res = await send(method, path, body);
  if (res.status === 401) {
    if (await refresh()) res = await send(method, path, body);
    if (res.status === 401) {
      token = null;
      clearRecord();
    }
  }
  return res;
}

async function parse<T>(res: Response): Promise<T> {
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ClientError(normalizeError(res.status, data));
  return data as T;
}

export async function get<T>(path: string, { fresh = false } = {}): Promise<T> {
  const hit = cache.get(path);
  if (!fresh && hit && Date.now() - hit.at < CACHE_MS) return hit.data as T;
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await authed("GET", path);
      // Client errors will not get better by asking again; only network faults and 5xx are retried.
      if (res.status < 500 || attempt >= RETRIES) {
        const data = await parse<T>(res);
        cache.set(path, { at: Date.now(), data });
        return data;
      }
    } catch (e) {
      if (e instanceof ClientError || attempt >= RETRIES) throw e;
    }
    await sleep(retryDelay(attempt));
  }
}

export async function write<T>(method: "POST" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<T> {
  cache.clear();
  return parse<T>(await authed(method, path, body));
}

/**
 * The answer of a call as the API declares it, for `get<…>` and `write<…>` (types only: nothing of
 * hono/client reaches the browser): `Answer<V1["uploads"]["$post"]>`.
 */
export type V1 = ReturnType<typeof hc<Api>>["v1"];
export type Answer<E extends (...args: never[]) => unknown> = InferResponseType<E, 200 | 201>;

export const invalidate = () => cache.clear();
export const setToken = (t: string | null) => {
  token = t;
};
