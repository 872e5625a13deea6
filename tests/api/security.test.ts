import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { action as devApi } from "../../app/routes/v1.$";
import { snapshot } from "../db-snapshot";
import { Client } from "../http";
import { burst, WRITE_BUDGET } from "../bursts";
import { user } from "../factories";

describe("CSRF (issue 8 §5)", () => {
  it.each(["POST", "PATCH", "PUT", "DELETE"])("refuses a cross-origin %s to pages and API alike", async (method) => {
    const a = await user();
    for (const path of ["/settings", "/logout", "/v1/users/email", "/v1/notes"]) {
      const res = await a.request(method, path, { email: "x@y.zz" }, { origin: "https://evil.example" });
      expect(res.status, `${method} ${path}`).toBe(403);
      const site = await a.request(method, path, { email: "x@y.zz" }, { "sec-fetch-site": "cross-site" });
      expect(site.status, `${method} ${path}`).toBe(403);
      const nul = await a.request(method, path, {}, { origin: "null" });
      expect(nul.status, `${method} ${path} Origin: null`).toBe(403);
    }
  });

  it("lets same-origin browser writes through", async () => {
    const a = await user();
    const res = await a.patch(
      "/v1/users/email",
      { email: `${a.username}@new.example`, password: a.password },
      { origin: "http://notex.test", "sec-fetch-site": "same-origin" },
    );
    expect(res.status).toBe(200);
  });
});

describe("the dev server's /v1 route (app/routes/v1.$.ts)", () => {
  // `npm run dev` serves /v1 through this Remix route, not the worker: it applies the same check.
  const call = (headers: Record<string, string>, cookie: string) =>
    devApi({
      request: new Request("http://notex.test/v1/notes", {
        method: "POST",
        headers: { "content-type": "application/json", cookie, ...headers },
        body: JSON.stringify({ label: "idea", content: "<p>forged</p>" }),
      }),
      context: { cloudflare: { env, ctx: createExecutionContext() } },
      params: {},
    } as never) as Promise<Response>;

  it.each([
    ["Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["Sec-Fetch-Site", { "sec-fetch-site": "cross-site" }],
  ])("refuses a cross-origin write carrying the cookie (%s), changing nothing", async (_name, headers) => {
    const a = await user();
    const before = await snapshot();
    const res = await call(headers, a.cookie ?? "");
    expect(res.status).toBe(403);
    expect(await snapshot()).toBe(before);
  });

  it("lets a same-origin write through", async () => {
    const a = await user();
    expect((await call({ origin: "http://notex.test" }, a.cookie ?? "")).status).toBe(201);
  });
});

describe("headers (issue 8 §4)", () => {
  it("API answers are private and nosniff; HSTS only outside local", async () => {
    const res = await new Client().get("/v1/health");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("write rate limit (issue 8 §7)", () => {
  it("a burst of writes by one user answers 429 with the spec's text, other users unaffected", async () => {
    const [a, b] = [await user(), await user()];
    const answered = await burst(WRITE_BUDGET, () => a.patch("/v1/users/email", { email: a.email }));
    expect(answered.filter((s) => s !== 200)).toEqual([]);
    expect((await b.patch("/v1/users/email", { email: b.email })).status).toBe(200);
  });
});
