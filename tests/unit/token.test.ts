import { sign } from "hono/jwt";
import { JWSRegisteredHeaders } from "@oslojs/jwt";
import { describe, expect, it, vi } from "vitest";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { signToken, TOKEN_TTL_S, verifyToken } from "../../worker/lib/token";

const SECRET = "unit-secret-0123456789abcdef0123456789";
const b64url = (s: string) => encodeBase64urlNoPadding(new TextEncoder().encode(s));
const json = (part: string) => JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(part)));

describe("bearer tokens (HS256 JWT with oslo)", () => {
  it("verifies what signToken signs: the account and session it names", () => {
    const token = signToken(SECRET, 7, "sid-1");
    expect(verifyToken(SECRET, token)).toEqual({ uid: 7, sid: "sid-1" });
    // Another library's HS256 with the same claims verifies too: it is a plain JWT.
    expect(json(token.split(".")[0])).toEqual({ alg: "HS256", typ: "JWT" });
  });

  it("accepts a standard HS256 token signed elsewhere", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({ sub: 7, sid: "s", iat: now, exp: now + 60 }, SECRET, "HS256");
    expect(verifyToken(SECRET, token)).toEqual({ uid: 7, sid: "s" });
  });

  it("refuses a changed payload, another secret, another algorithm, expiry, odd claims and garbage", async () => {
    const token = signToken(SECRET, 7, "sid-1");
    const [h, p, sig] = token.split(".");
    const forged = b64url(JSON.stringify({ ...json(p), sub: 1 }));
    expect(verifyToken(SECRET, `${h}.${forged}.${sig}`)).toBeNull();
    expect(verifyToken(`${SECRET}x`, token)).toBeNull();
    const none = `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${p}.`;
    expect(verifyToken(SECRET, none)).toBeNull();
    const now = Math.floor(Date.now() / 1000);
    expect(
      verifyToken(SECRET, await sign({ sub: 7, sid: "s", iat: now - 100, exp: now - 1 }, SECRET, "HS256")),
    ).toBeNull();
    expect(verifyToken(SECRET, await sign({ sub: 7, sid: "s" }, SECRET, "HS256"))).toBeNull();
    expect(
      verifyToken(SECRET, await sign({ sub: 7, sid: "s", exp: now + 60, nbf: now + 30 }, SECRET, "HS256")),
    ).toBeNull();
    expect(verifyToken(SECRET, await sign({ sub: "7", sid: "s", exp: now + 60 }, SECRET, "HS256"))).toBeNull();
    expect(verifyToken(SECRET, await sign({ sub: 7, sid: 1, exp: now + 60 }, SECRET, "HS256"))).toBeNull();
    expect(
      verifyToken(SECRET, await sign(JSON.parse(`{"sub":7,"sid":"s","exp":"later"}`), SECRET, "HS256")),
    ).toBeNull();
    for (const junk of ["", "a.b", "a.b.c", "...", `${h}.${p}`, `${h}.${p}.!!`])
      expect(verifyToken(SECRET, junk)).toBeNull();
  });

  it("checks a token in full once per isolate; a repeat still expires on time", () => {
    vi.useFakeTimers({ now: Date.now() });
    const parsed = vi.spyOn(JWSRegisteredHeaders.prototype, "hasAlgorithm");
    try {
      const token = signToken(SECRET, 8, "sid-once");
      for (let i = 0; i < 3; i++) expect(verifyToken(SECRET, token)).toEqual({ uid: 8, sid: "sid-once" });
      expect(parsed).toHaveBeenCalledTimes(1);
      // Another secret is another check, and fails.
      expect(verifyToken(`${SECRET}x`, token)).toBeNull();
      vi.advanceTimersByTime((TOKEN_TTL_S + 1) * 1000);
      expect(verifyToken(SECRET, token)).toBeNull();
    } finally {
      parsed.mockRestore();
      vi.useRealTimers();
    }
  });
});
