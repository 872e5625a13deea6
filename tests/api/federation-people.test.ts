// People on another server as NoteX shows them: found by handle or by profile URL (stored once),
// answered with where their original profile is, and a handle that finds no one is a 404.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instance, migrate, person, routeFetch, type Person } from "../fediverse";

const A = instance("a.test", env.DB);
const B = instance("b.test", env.DB_B);
let unroute: () => void;
let ada: Person; // on a.test
let bob: Person; // on b.test

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B]);
  ada = await person(A, "adapeople");
  bob = await person(B, "bobpeople");
  expect((await bob.call("PATCH", "/v1/users", { name: "Bob Remote", descr: "Builds <b>bridges</b>" })).status).toBe(
    200,
  );
}, 120_000);
afterAll(() => unroute());

const stored = () =>
  A.env.DB.prepare("select count(*) as n from remote_actors where host = 'b.test'")
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

describe("people on another server", () => {
  it("a profile URL finds the person (the page answers the actor), stored once", async () => {
    const found = await ada.call("GET", `/v1/users/${encodeURIComponent("http://b.test/bobpeople")}`);
    expect(found.status).toBe(200);
    expect(found.body.username).toBe("bobpeople@b.test");
    expect(found.body.fullname).toBe("Bob Remote");
    expect(found.body.remote_url).toBe("http://b.test/bobpeople");
    expect(await stored()).toBe(1);
  });

  it("the handle, with or without @, answers the same account and where it lives", async () => {
    const plain = await ada.call("GET", "/v1/users/bobpeople@b.test");
    const at = await ada.call("GET", "/v1/users/@bobpeople@b.test");
    expect(at.body.id).toBe(plain.body.id);
    expect(plain.body.remote_url).toBe("http://b.test/bobpeople");
    // His bio was text with angle brackets: it stays that text (escaped there, read as text here).
    expect(plain.body.descr).toBe("Builds <b>bridges</b>");
    expect(await stored()).toBe(1);
    // A local person's record says nothing of another server.
    expect((await ada.call("GET", "/v1/users/adapeople")).body.remote_url).toBeUndefined();
  });

  it("a handle that names no one, or a server that cannot be reached, is a 404 and stores nothing", async () => {
    for (const handle of ["nobody_here@b.test", "someone@unreachable.invalid", "a@b@c.test", "http://b.test/nobody"]) {
      const res = await ada.call("GET", `/v1/users/${encodeURIComponent(handle)}`);
      expect(res.status, handle).toBe(404);
    }
    expect(await stored()).toBe(1);
  });
});
