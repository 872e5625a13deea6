import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { signToken, verifyToken } from "../../worker/lib/session";

const SECRET = "unit-secret-0123456789abcdef0123456789";
const env = { TOKEN_SECRET: SECRET } as Parameters<typeof signToken>[0];
const b64url = (s: string) => btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

describe("bearer tokens (HS256, key imported once)", () => {
  it("verifies what signToken signs, with its claims", async () => {
    const token = await signToken(env, 7, "sid-1", 3);
    expect(await verifyToken(SECRET, token)).toMatchObject({ sub: 7, sid: "sid-1", ep: 3 });
  });

  it("refuses a changed payload, another secret, another algorithm, expiry and garbage", async () => {
    const token = await signToken(env, 7, "sid-1", 3);
    const [h, p, sig] = token.split(".");
    const forged = b64url(JSON.stringify({ ...JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/"))), sub: 1 }));
    expect(await verifyToken(SECRET, `${h}.${forged}.${sig}`)).toBeNull();
    expect(await verifyToken(`${SECRET}x`, token)).toBeNull();
    const none = `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${p}.`;
    expect(await verifyToken(SECRET, none)).toBeNull();
    const now = Math.floor(Date.now() / 1000);
    const expired = await sign({ sub: 7, sid: "s", ep: 3, iat: now - 100, exp: now - 1 }, SECRET, "HS256");
    expect(await verifyToken(SECRET, expired)).toBeNull();
    const noExp = await sign({ sub: 7, sid: "s", ep: 3 }, SECRET, "HS256");
    expect(await verifyToken(SECRET, noExp)).toBeNull();
    for (const junk of ["", "a.b", "a.b.c", "...", `${h}.${p}`]) expect(await verifyToken(SECRET, junk)).toBeNull();
  });
});
