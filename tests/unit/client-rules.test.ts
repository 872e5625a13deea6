import { afterEach, describe, expect, it, vi } from "vitest";
import { errorText, normalizeError } from "~/lib/errors";
import { emptyRecord, fromServer, isAuthenticated } from "~/lib/record";
import { relativeTime } from "~/lib/time";
import { withParam, safeRedirect } from "~/lib/url";

describe("spec 8: error normalisation", () => {
  it("defaults to 500, -1 and 'undefined error'", () => {
    expect(normalizeError(undefined, null)).toEqual({ status: 500, code: -1, message: "undefined error" });
    expect(normalizeError(0, "x")).toEqual({ status: 500, code: -1, message: "undefined error" });
  });
  it("takes code and message from the body", () => {
    expect(normalizeError(409, { code: "username_taken", message: "m", fields: { a: "b" } })).toEqual({
      status: 409,
      code: "username_taken",
      message: "m",
      fields: { a: "b" },
    });
  });
  it("maps statuses per context word for word", () => {
    const e = (status: number) => normalizeError(status, {});
    expect(errorText(e(409), "signup")).toBe("Username already exists. Please choose another.");
    expect(errorText(e(409), "folder")).toBe("You already have this x-folder");
    expect(errorText(e(409), "username")).toBe("username is taken");
    expect(errorText(e(422), "login")).toBe("Invalid username or password.");
    expect(errorText(e(422), "password")).toBe("password is not valid");
    expect(errorText(e(422), "username")).toBe("username is not valid");
    expect(errorText(e(422), "email")).toBe("email is not valid");
    expect(errorText(e(401), "login")).toBe("Username or password is incorrect.");
    expect(errorText(e(401), "password")).toBe("current password is not correct.");
    expect(errorText(e(412))).toBe("Recaptcha failed, please try again.");
    expect(errorText(e(429))).toBe("Too many requests, please try again.");
    expect(errorText(e(500))).toBe("Something went wrong, please try again.");
    expect(errorText(e(418), "signup")).toBe("Something went wrong, please try again.");
  });
  it("only logs a 429 on like, bookmark and renote", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const ctx of ["like", "bookmark", "renote"] as const)
      expect(errorText(normalizeError(429, {}), ctx)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});

describe("spec 9: relative time", () => {
  const now = Date.UTC(2026, 10, 23);
  it.each([
    [0, "0s"],
    [59_000, "59s"],
    [60_000, "1m"],
    [3_599_000, "59m"],
    [3_600_000, "1h"],
    [86_400_000, "1d"],
    [29 * 86_400_000, "29d"],
    [30 * 86_400_000, "1mo"],
    [364 * 86_400_000, "11mo"],
    [365 * 86_400_000, "1y"],
    [3 * 365 * 86_400_000, "3y"],
  ])("%i ms ago → %s", (ago, text) => {
    expect(relativeTime(now - ago, now)).toBe(text);
  });
});

describe("spec 3: the client record", () => {
  it("maps a server user and defaults everything else", () => {
    const r = fromServer({
      id: 7,
      email: "a@b.c",
      username: "ada_l",
      fullname: "Ada",
      avatar: "",
      confirmed: true,
      stats: { noti: 2 },
    });
    expect(r).toMatchObject({
      userID: 7,
      email: "a@b.c",
      username: "ada_l",
      fullname: "Ada",
      confirmed: true,
      jstats: { noti: 2 },
    });
    expect(isAuthenticated(r)).toBe(true);
    expect(emptyRecord()).toEqual({
      userID: 0,
      email: "",
      username: "",
      fullname: "",
      avatar: "",
      confirmed: false,
      jslabel: "",
      jstats: {},
    });
    expect(isAuthenticated({ ...r, username: "" })).toBe(false);
    expect(isAuthenticated({ ...r, userID: 0 })).toBe(false);
  });
});

describe("urls", () => {
  it("never redirects off-site", () => {
    expect(safeRedirect("/a?b=1")).toBe("/a?b=1");
    for (const bad of ["//evil.com", "https://evil.com", "/\\evil.com", "", null]) expect(safeRedirect(bad)).toBe("/");
  });
  it("sets and removes one query parameter", () => {
    expect(withParam({ pathname: "/x", search: "?a=1" }, "dialog", "login")).toBe("/x?a=1&dialog=login");
    expect(withParam({ pathname: "/x", search: "?dialog=login" }, "dialog", null)).toBe("/x");
  });
});

describe("the browser API client", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("refreshes once on 401 and retries; a second 401 clears the record", async () => {
    const store = new Map<string, string>([["notex", JSON.stringify({ userID: 1, username: "ada_l" })]]);
    vi.stubGlobal("localStorage", {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    });
    const calls: string[] = [];
    let refreshOk = true;
    vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get("authorization");
      calls.push(`${url} ${auth ?? ""}`);
      if (url === "/v1/refresh")
        return new Response(JSON.stringify({ token: "t2" }), { status: refreshOk ? 200 : 401 });
      return auth === "Bearer t2" && refreshOk ? new Response('{"ok":1}') : new Response("{}", { status: 401 });
    });
    const client = await import("~/lib/client");
    client.setToken("t1");
    expect(await client.write("POST", "/likes/1?t=note")).toEqual({ ok: 1 });
    expect(calls).toEqual(["/v1/likes/1?t=note Bearer t1", "/v1/refresh ", "/v1/likes/1?t=note Bearer t2"]);
    expect(store.has("notex")).toBe(true);

    refreshOk = false;
    client.setToken("t1");
    await expect(client.write("POST", "/likes/1?t=note")).rejects.toMatchObject({ error: { status: 401 } });
    expect(store.has("notex")).toBe(false);
  });

  it("retries a failing GET 3 times with exponential delay capped at 30 s, never a write", async () => {
    const client = await import("~/lib/client");
    expect([0, 1, 2, 3, 4, 5, 10].map(client.retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    vi.useFakeTimers();
    let gets = 0;
    let posts = 0;
    vi.stubGlobal("fetch", async (_url: string, init?: RequestInit) => {
      if ((init?.method ?? "GET") === "GET") gets++;
      else posts++;
      return new Response("{}", { status: 503 });
    });
    const pending = client.get<{ error: { status: number } }>("/discover?page=1", { fresh: true }).catch((e) => e);
    await vi.runAllTimersAsync();
    expect((await pending).error.status).toBe(503);
    expect(gets).toBe(4);
    await client.write("POST", "/notes", {}).catch(() => {});
    expect(posts).toBe(1);
    vi.useRealTimers();
  });

  it("serves a GET from the 5-minute cache, and a write clears it", async () => {
    const client = await import("~/lib/client");
    let n = 0;
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ n: ++n })));
    client.invalidate();
    expect(await client.get("/x")).toEqual({ n: 1 });
    expect(await client.get("/x")).toEqual({ n: 1 });
    await client.write("POST", "/y");
    expect(await client.get("/x")).toEqual({ n: 3 });
  });
});
