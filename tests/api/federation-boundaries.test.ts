// Where this server's federation stops: a suspended or deleted account is gone (410) and its
// collections with it, a server publishes only its own people's content, a remote handle follows
// Mastodon's grammar (others are never stored), this server's own people are never copied as
// "remote", a domain block covers the domain's subdomains, and a remote display name loses its
// invisible characters. Two NoteX instances as in federation-e2e.test.ts (tests/fediverse.ts).
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appToken,
  caller,
  drain,
  type Instance,
  instance,
  migrate,
  type Person,
  person,
  routeFetch,
  signedPost,
} from "../fediverse";

/** A server under a blocked domain: every request it gets is counted. */
let subHits = 0;
const sub = {
  host: "deep.r.test",
  origin: "http://deep.r.test",
  env: undefined,
  fetch: async () => {
    subHits++;
    return new Response("no", { status: 404 });
  },
} as unknown as Instance;

const A = instance("p.test", env.DB);
const B = instance("q.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ada: Person; // on p.test
let bob: Person; // on q.test
let mod: Person; // a moderator on p.test
let bobOnA = 0;

const AP = { accept: "application/activity+json" };
const get = (inst: Instance, path: string, headers: Record<string, string> = AP) =>
  inst.fetch(new Request(`${inst.origin}${path}`, { headers }));
const count = (inst: Instance, sql: string, ...args: unknown[]) =>
  inst.env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B, sub]);
  ada = await person(A, "adabound");
  bob = await person(B, "bobbound");
  mod = await person(A, "modbound");
  await A.env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
  bobOnA = (await ada.call("GET", "/v1/users/bobbound@q.test")).body.id;
}, 120_000);
afterAll(() => unroute());

describe("a suspended or deleted account, and collections of people elsewhere", () => {
  it("the outbox and followers of a person on another server are not this server's to publish (404)", async () => {
    expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
    await drain(both);
    expect((await bob.call("POST", "/v1/notes", { label: "work", content: "<p>Written on q.test</p>" })).status).toBe(
      201,
    );
    await drain(both);
    expect(await count(A, "select count(*) as n from notes where user_id = ?", bobOnA)).toBe(1);
    for (const path of [`/ap/users/${bobOnA}/outbox`, `/ap/users/${bobOnA}/followers`, `/ap/users/${bobOnA}`]) {
      const res = await get(A, `${path}${path.endsWith("outbox") ? "?cursor=" : ""}`);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain("Written on q.test");
    }
  });

  it("a suspended person's actor, outbox, followers and WebFinger answer 410, and another server finds nobody", async () => {
    const cara = await person(A, "carabound");
    expect((await cara.call("POST", "/v1/notes", { label: "work", content: "<p>Before the ban</p>" })).status).toBe(
      201,
    );
    const caraOnB = (await bob.call("GET", "/v1/users/carabound@p.test")).body.id;
    expect((await bob.call("POST", `/v1/follows/${caraOnB}`)).status).toBe(200);
    await drain(both);
    const done = await mod.call("POST", "/v1/moderation/actions", {
      kind: "user",
      id: cara.id,
      action: "suspend",
      reason: "Spam",
    });
    expect(done.status).toBe(200);
    for (const path of [
      `/ap/users/${cara.id}`,
      `/ap/users/${cara.id}/outbox`,
      `/ap/users/${cara.id}/outbox?cursor=`,
      `/ap/users/${cara.id}/followers`,
      `/ap/users/${cara.id}/followers?cursor=0`,
      `/ap/users/${cara.id}/following`,
      "/carabound",
    ]) {
      const res = await get(A, path);
      expect(res.status, path).toBe(410);
      expect(await res.text(), path).not.toContain("Before the ban");
    }
    const finger = await get(A, "/.well-known/webfinger?resource=acct:carabound@p.test", {});
    expect(finger.status).toBe(410);
    // Lifted, the account federates again.
    await mod.call("POST", "/v1/moderation/actions", { kind: "user", id: cara.id, action: "unsuspend", reason: "x" });
    expect((await get(A, `/ap/users/${cara.id}`)).status).toBe(200);
  });

  it("a deleted account's actor and collections answer 410; an id never used is a 404", async () => {
    const dan = await person(A, "danbound");
    expect((await dan.call("DELETE", "/v1/users", { password: "secret123" })).status).toBe(200);
    for (const path of [`/ap/users/${dan.id}`, `/ap/users/${dan.id}/outbox`, `/ap/users/${dan.id}/followers`])
      expect((await get(A, path)).status, path).toBe(410);
    expect((await get(A, "/ap/users/987654")).status).toBe(404);
  });
});

describe("remote handles", () => {
  const HOSTILE = ["../../v1/logout?all=1#", "evil\u202egnp", "<b>x</b>", "two\nlines", "a@b", "x y", ""];

  it("a handle outside Mastodon's grammar is refused at lookup: nothing is stored", async () => {
    // One person each: a fetched actor document is cached, so each name is a new actor.
    for (const [i, name] of HOSTILE.entries()) {
      const eve = await person(B, `evebound${i}`);
      await B.env.DB.prepare("update users set username = ? where id = ?").bind(name, eve.id).run();
      const uri = `http://q.test/ap/users/${eve.id}`;
      const res = await ada.call("GET", `/v1/users/${encodeURIComponent(uri)}`);
      expect(res.status, JSON.stringify(name)).toBe(404);
      expect(await count(A, "select count(*) as n from remote_actors where uri = ?", uri)).toBe(0);
    }
    // Letters, digits, "_", and "." or "-" between them: stored as Mastodon would.
    const fay = await person(B, "faybound");
    await B.env.DB.prepare("update users set username = 'fay.bound-ok_1' where id = ?").bind(fay.id).run();
    const ok = await ada.call("GET", `/v1/users/${encodeURIComponent(`http://q.test/ap/users/${fay.id}`)}`);
    expect(ok.body.username).toBe("fay.bound-ok_1@q.test");
  });

  it("a follow from an actor with such a handle is not taken: no account, no follow, no notification", async () => {
    const mal = await person(B, "malbound");
    const adaOnB = (await mal.call("GET", "/v1/users/adabound@p.test")).body.id;
    await B.env.DB.prepare("update users set username = '../../v1/logout?all=3#' where id = ?").bind(mal.id).run();
    expect((await mal.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain(both);
    expect(
      await count(A, "select count(*) as n from remote_actors where uri = ?", `http://q.test/ap/users/${mal.id}`),
    ).toBe(0);
    const notis = (await ada.call("GET", "/v1/notifications")).body.notis as { href: string }[];
    expect(notis.some((n) => n.href.includes("logout"))).toBe(false);
    // Its signed delivery is refused at the inbox with a 4xx, before anything is queued.
    const actor = `${B.origin}/ap/users/${mal.id}`;
    const res = await signedPost(B, mal.id, `${A.origin}/ap/inbox`, {
      id: `${actor}#follows/again`,
      type: "Follow",
      actor,
      object: `${A.origin}/ap/users/${ada.id}`,
    });
    expect(res.status).toBe(400);
  });

  it("every link built from a stored handle is encoded: notifications, the Mastodon account's url", async () => {
    // A row stored before handles were checked.
    const odd = "../../v1/logout?all=2#@q.test";
    const made = await A.env.DB.prepare(
      "insert into users (username, email, fullname, confirmed) values (?, 'http://q.test/ap/users/odd', 'Odd', 1) returning id",
    )
      .bind(odd)
      .first<{ id: number }>();
    const id = made?.id ?? 0;
    await A.env.DB.prepare(
      "insert into remote_actors (user_id, uri, host, inbox, fetched_at) values (?, 'http://q.test/ap/users/odd', 'q.test', 'http://q.test/ap/inbox', 0)",
    )
      .bind(id)
      .run();
    await A.env.DB.prepare(
      "insert into notifications (user_id, actor_id, action, tblname, target_id, created_at) values (?, ?, 'follow', '', 0, ?)",
    )
      .bind(ada.id, id, Date.now())
      .run();
    const notis = (await ada.call("GET", "/v1/notifications")).body.notis as { href: string; user: { id: number } }[];
    const href = notis.find((n) => n.user.id === id)?.href ?? "";
    expect(new URL(href, "http://p.test").pathname.split("/").filter(Boolean)).toHaveLength(1);
    expect(href).not.toContain("?");
    expect(href).not.toContain("#");
    const token = await appToken(A, ada);
    const acct = await caller(A)("GET", `/api/v1/accounts/${id}`, undefined, token);
    expect(acct.status).toBe(200);
    // A remote account's url is its own server's address for it, never one built from the handle.
    expect(acct.body.url).toBe("http://q.test/ap/users/odd");
  });

  it("a remote display name loses bidi controls and other invisible characters", async () => {
    const zed = await person(B, "zedbound");
    await B.env.DB.prepare("update users set fullname = ? where id = ?").bind("Zed \u202egnp.exe\u200b", zed.id).run();
    const found = await ada.call("GET", "/v1/users/zedbound@q.test");
    expect(found.status).toBe(200);
    expect(found.body.fullname).toBe("Zed gnp.exe");
  });
});

describe("this server's own people, looked up by handle or URL", () => {
  it("resolve to the local account: no remote copy is made", async () => {
    for (const q of [
      "adabound@p.test",
      "@adabound@p.test",
      `http://p.test/ap/users/${ada.id}`,
      "http://p.test/adabound",
      "http://p.test/@adabound",
    ]) {
      const here = await ada.call("GET", `/v1/users/${encodeURIComponent(q)}`);
      expect(here.status, q).toBe(200);
      expect(here.body.id, q).toBe(ada.id);
    }
    const token = await appToken(A, ada);
    const search = await caller(A)(
      "GET",
      `/api/v2/search?q=${encodeURIComponent(`http://p.test/ap/users/${ada.id}`)}&resolve=true&type=accounts`,
      undefined,
      token,
    );
    expect(search.body.accounts.map((a: { id: string }) => a.id)).toEqual([String(ada.id)]);
    expect(await count(A, "select count(*) as n from remote_actors where host = 'p.test'")).toBe(0);
    const people = (await ada.call("GET", "/v1/search?q=adabound&t=users")).body;
    expect(JSON.stringify(people).match(/adabound/g)?.length ?? 0).toBeGreaterThan(0);
    expect(JSON.stringify(people)).not.toContain("adabound@p.test");
  });
});

describe("a domain block", () => {
  it("covers the domain's subdomains: no lookup there, their deliveries refused at the door", async () => {
    expect((await mod.call("POST", "/v1/moderation/domains", { domain: "r.test", reason: "Spam" })).status).toBe(200);
    const before = subHits;
    expect((await ada.call("GET", "/v1/users/someone@deep.r.test")).status).toBe(404);
    expect((await ada.call("GET", `/v1/users/${encodeURIComponent("http://deep.r.test/ap/users/1")}`)).status).toBe(
      404,
    );
    expect(subHits).toBe(before);
    const like = {
      id: "http://deep.r.test/ap/users/1#likes/1",
      type: "Like",
      actor: "http://deep.r.test/ap/users/1",
      object: `${A.origin}/ap/notes/1`,
    };
    const fromSub = { ...B, origin: "http://deep.r.test" } as Instance;
    expect((await signedPost(fromSub, bob.id, `${A.origin}/ap/inbox`, like)).status).toBe(403);
    // A domain that only ends with the same letters is not under the block.
    expect(
      (await mod.call("GET", "/v1/moderation/domains")).body.domains.map((d: { domain: string }) => d.domain),
    ).toEqual(["r.test"]);
  });
});

describe("pages that are also ActivityPub objects", () => {
  it("answer with Vary: Accept, as HTML and as JSON", async () => {
    const made = await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Vary me</p>" });
    for (const path of ["/adabound", `/adabound/note/${made.body.note.id}`]) {
      for (const accept of ["text/html", "application/activity+json"]) {
        const res = await get(A, path, { accept });
        // (The test worker has no pages: its HTML answer is a stand-in 404, with the same headers.)
        expect(res.status, `${path} ${accept}`).toBe(accept === "text/html" ? 404 : 200);
        expect(res.headers.get("vary") ?? "", `${path} ${accept}`).toMatch(/\baccept\b/i);
      }
    }
  });
});
