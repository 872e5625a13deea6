// Issue 19: a signed-in browser that runs JavaScript gets the app shell (worker/lib/shell.ts), one
// copy for everyone, from the cache, with no session lookup and no D1; everything else is unchanged.
import { describe, expect, it } from "vitest";
import { user, visitor } from "../factories";

let seq = 0;
const fresh = () => `/probe?v=${Date.now()}-${seq++}`;
const d1Trips = (h: Headers) => Number(/d1;desc="(\d+) round trips"/.exec(h.get("server-timing") ?? "")?.[1]);

describe("the app shell (issue 19)", () => {
  it("a signed-in page view with the JavaScript marker is the shell: no one's data, no D1, shared", async () => {
    const [a, b] = [await user(), await user()];
    const path = fresh();
    const first = await a.get(path, { cookie: `${a.cookie}; nx_js=1` });
    expect(first.body).toBe("<p>signed in as shell</p>");
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect(first.headers.get("cache-control")).toBe("private, no-store");
    expect(d1Trips(first.headers)).toBe(0);
    // Another person gets the same copy from the cache.
    const second = await b.get(path, { cookie: `${b.cookie}; nx_js=1` });
    expect(second.body).toBe("<p>signed in as shell</p>");
    expect(second.headers.get("x-page-cache")).toBe("hit");
    expect(second.headers.get("cache-control")).toBe("private, no-store");
  });

  it("the shell's copy is never a visitor's page, and a visitor's copy is never the shell", async () => {
    const a = await user();
    const path = fresh();
    expect((await visitor().get(path)).body).toBe("<p>signed in as visitor</p>");
    expect((await a.get(path, { cookie: `${a.cookie}; nx_js=1` })).headers.get("x-page-cache")).toBe("miss");
    expect((await visitor().get(path, { cookie: "nx_js=1" })).body).toBe("<p>signed in as visitor</p>");
  });

  it("without the marker, the page's data, and forms are rendered for the session as before", async () => {
    const a = await user();
    expect((await a.get(fresh())).body).toBe(`<p>signed in as ${a.username}</p>`);
    // The shell's own follow-up request: the page's loaders, for this session.
    const data = await a.get(`/probe.data?v=${Date.now()}`, { cookie: `${a.cookie}; nx_js=1` });
    expect(data.body).toBe(`<p>signed in as ${a.username}</p>`);
    expect(data.headers.get("cache-control")).toBe("private, no-store");
    // Marker values other than 1 are not the marker.
    expect((await a.get(fresh(), { cookie: `${a.cookie}; nx_js=0` })).body).toBe(`<p>signed in as ${a.username}</p>`);
  });

  it("GET /nojs clears the marker and goes back to the page, on this site only", async () => {
    const a = await user();
    const back = await a.get("/nojs?to=%2Fprobe%3Fv%3D1");
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/probe?v=1");
    expect(back.headers.get("set-cookie")).toMatch(/^nx_js=; Path=\/; Max-Age=0/);
    for (const to of ["https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)", ""]) {
      const res = await a.get(`/nojs?to=${encodeURIComponent(to)}`);
      expect(res.status, to).toBe(303);
      expect(res.headers.get("location"), to).toBe("/");
    }
  });
});
