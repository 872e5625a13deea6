// A tiny HTTP client over the worker under test (tests/worker.ts, its fetch handler called with the
// pool's bindings): every test goes through the same middleware, routing and error mapping a browser
// would. Called directly rather than through the runtime's loopback (`exports.default.fetch`):
// through that, every request cost more than the one before it in the same file (7 ms at first,
// 46 ms after 200 requests), which made the long robustness barrages take minutes.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import type { Env } from "../worker/env";
import worker from "./worker";

export const BASE = "http://notex.test";

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

let ipCounter = 0;
/** A distinct client address per simulated person, so per-IP limits behave as they would in production. */
export const nextIp = () => `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

export class Client {
  token: string | null = null;
  cookie: string | null = null;
  ip = nextIp();

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Res<T>> {
    const h = new Headers({ "cf-connecting-ip": this.ip, ...headers });
    if (this.token && !h.has("authorization")) h.set("authorization", `Bearer ${this.token}`);
    if (this.cookie && !h.has("cookie")) h.set("cookie", this.cookie);
    let payload: string | FormData | undefined;
    // A form (a file upload) goes as multipart, its boundary set by the request itself.
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = typeof body === "string" ? body : JSON.stringify(body);
      if (!h.has("content-type")) h.set("content-type", "application/json");
    }
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      // Redirects are answers to inspect (the Google start route), not to follow.
      new Request(`${BASE}${path}`, { method, headers: h, body: payload, redirect: "manual" }),
      env,
      ctx,
    );
    const setCookie = res.headers.getSetCookie?.() ?? [];
    for (const c of setCookie) {
      const [pair] = c.split(";");
      if (pair.startsWith("notex_sid=")) this.cookie = pair.endsWith("=") ? null : pair;
    }
    const text = await res.text();
    // What the request left running (ctx.waitUntil) ends before the test goes on, as it would
    // have by the time a person's next request arrives.
    await waitOnExecutionContext(ctx);
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, undefined, headers);
  }
  post<T = any>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>("POST", path, body, headers);
  }
  patch<T = any>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>("PATCH", path, body, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("DELETE", path, undefined, headers);
  }
}

/** A form holding one file, `field` (a zip unless `type` says otherwise), for Client.post. */
export function fileForm(name: string, bytes: Uint8Array, type = "application/zip", field = "file") {
  const form = new FormData();
  form.set(field, new File([bytes as unknown as BlobPart], name, { type }));
  return form;
}

/** One request through the app with these bindings in place of the pool's (a production or broken environment). */
export async function callWith(bindings: Partial<Env>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  headers.set("cf-connecting-ip", nextIp());
  const res = await worker.fetch(new Request(`${BASE}${path}`, { ...init, headers }), { ...env, ...bindings }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}
