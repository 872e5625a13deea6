// A GET page's session check rides in the page's first D1 round trip (lib/session.ts pageGate):
// the cookie's secret starts with the account id, so the page's reads are built for that person
// at once. Through the real middleware, with the stand-in page of tests/worker.ts (it reads once,
// then says who is signed in).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashSecret, randomToken } from "../../worker/lib/session";
import { d1Of } from "../../worker/db/meter";
import { user, visitor } from "../factories";

let seq = 0;
const fresh = () => `/probe?v=${Date.now()}-${seq++}`;
const secretOf = (cookie: string | null | undefined) => (cookie ?? "").split("=")[1];

describe("a page's session check rides in its first round trip", () => {
  it("a signed-in page costs one round trip: the session check and the page's read together", async () => {
    const a = await user();
    const res = await a.get(fresh());
    expect(res.body).toBe(`<p>signed in as ${a.username}</p>`);
    expect(d1Of(res.headers.get("server-timing")).trips).toBe(1);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("a session that no longer holds is answered as a visitor: epoch moved on, suspended, logged out", async () => {
    const revocations = [
      "update users set session_epoch = session_epoch + 1 where id = ?1",
      "update users set suspended_at = 1 where id = ?1",
      "delete from sessions where user_id = ?1",
    ];
    for (const revoke of revocations) {
      const a = await user();
      expect((await a.get(fresh())).body).toBe(`<p>signed in as ${a.username}</p>`);
      await env.DB.prepare(revoke).bind(a.id).run();
      const res = await a.get(fresh());
      expect(res.status, revoke).toBe(200);
      expect(res.body, revoke).toBe("<p>signed in as visitor</p>");
      // The dead cookie is dropped, so the next page is a visitor's without trying it again.
      expect(res.headers.get("set-cookie") ?? "", revoke).toMatch(/notex_sid=; Max-Age=0; Path=\/; HttpOnly/);
    }
  });

  it("the account id cannot be swapped: it is part of the secret the session is found by", async () => {
    const a = await user();
    const b = await user();
    const secret = secretOf(a.cookie);
    expect(secret.startsWith(`${a.id}.`)).toBe(true);
    const swapped = secret.replace(`${a.id}.`, `${b.id}.`);
    const res = await visitor().get(fresh(), { cookie: `notex_sid=${swapped}` });
    expect(res.body).toBe("<p>signed in as visitor</p>");
    // And the real one still works.
    expect((await visitor().get(fresh(), { cookie: `notex_sid=${secret}` })).body).toBe(
      `<p>signed in as ${a.username}</p>`,
    );
  });

  it("a session started before secrets named their account is still checked first, as before", async () => {
    const a = await user();
    const secret = randomToken();
    const now = Date.now();
    await env.DB.prepare(
      "insert into sessions (id, user_id, ep, user_agent, created_at, last_seen_at, expires_at) select ?1, id, session_epoch, '', ?2, ?2, ?3 from users where id = ?4",
    )
      .bind(await hashSecret(secret), now, now + 86_400_000, a.id)
      .run();
    const res = await visitor().get(fresh(), { cookie: `notex_sid=${secret}` });
    expect(res.body).toBe(`<p>signed in as ${a.username}</p>`);
    expect(d1Of(res.headers.get("server-timing")).trips).toBe(2);
  });
});
