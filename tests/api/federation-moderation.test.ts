// A moderator's acts federate as Mastodon's do. Hiding a local note or reply sends its Delete (a
// Tombstone) to the servers it reached, as deleting it would; restoring it sends nothing (servers
// that took the Delete keep a tombstone and refuse the same id again). Suspending a local person
// sends Delete(Person) to the servers that know them (their actor answers 410 meanwhile, as a
// deleted account's), and nothing of theirs goes out while suspended; lifting it sends
// Update(Person). Servers named *.mod.test stand for those of people stored here: each keeps what
// it is sent.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, instance, noteBy, type Person, person, routeFetch } from "../fediverse";

const A = instance("modfed.test", env.DB);
let unroute: () => void;
let mod: Person; // a moderator here
let mo: Person; // a person here, moderated
const got: { host: string; type: string; object: string }[] = [];

/** Someone on `letter`.mod.test, stored here (a remote_actors row), who can act here through /v1. */
async function elsewhere(letter: string) {
  const p = await person(A, `modfed${letter}`);
  const host = `${letter}.mod.test`;
  await A.env.DB.prepare(
    "insert into remote_actors (user_id, uri, host, inbox, shared_inbox, url, fetched_at) values (?1, ?2, ?3, ?4, null, '', 0)",
  )
    .bind(p.id, `http://${host}/u/${p.username}`, host, `http://${host}/inbox`)
    .run();
  return p;
}

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  const routed = routeFetch([A]);
  const inner = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const host = new URL(request.url).host;
    if (!host.endsWith(".mod.test")) return inner(request);
    const body = (await request.json()) as { type: string; object: string | { id: string } };
    got.push({ host, type: body.type, object: typeof body.object === "string" ? body.object : body.object.id });
    return new Response(null, { status: 202 });
  }) as typeof fetch;
  unroute = () => {
    globalThis.fetch = inner;
    routed();
  };
  mod = await person(A, "modfedmod");
  await A.env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
  mo = await person(A, "modfedmo");
}, 120_000);
afterAll(() => unroute());

/** What a moderator's act sent once the queue ran: each server's activity, in host order. */
async function acted(kind: string, id: number, action: string) {
  const res = await mod.call("POST", "/v1/moderation/actions", { kind, id, action, reason: "Against the rules." });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  got.splice(0);
  await drain([A]);
  return got.splice(0).sort((a, b) => a.host.localeCompare(b.host));
}

describe("a moderator's acts on a person here", () => {
  it("hiding a note or reply sends its Delete where it reached; restoring sends nothing", async () => {
    const [follower, liker, replier] = [await elsewhere("f"), await elsewhere("l"), await elsewhere("r")];
    expect((await follower.call("POST", `/v1/follows/${mo.id}`)).status).toBe(200);
    const note = await noteBy(mo, "to be hidden");
    await liker.call("POST", `/v1/likes/${note}?t=note`);
    const reply = (await mo.call("POST", "/v1/replies", { parent: -note, content: "<p>mine below</p>" })).body.id;
    await replier.call("POST", "/v1/replies", { parent: reply, content: "<p>under it</p>" });
    await drain([A]);

    const noteUri = `${A.origin}/ap/notes/${note}`;
    expect(await acted("note", note, "hide")).toEqual(
      ["f", "l", "r"].map((h) => ({ host: `${h}.mod.test`, type: "Delete", object: noteUri })),
    );
    expect(await acted("note", note, "restore")).toEqual([]);
    expect(await acted("reply", reply, "hide")).toEqual(
      ["f", "r"].map((h) => ({ host: `${h}.mod.test`, type: "Delete", object: `${A.origin}/ap/notes/r${reply}` })),
    );
  });

  it("suspending sends Delete(Person) and nothing of theirs after it; lifting it sends Update(Person)", async () => {
    const far = await elsewhere("x");
    const farNote = await noteBy(far, "from elsewhere");
    await A.env.DB.prepare(
      "insert into remote_objects (uri, kind, row_id, user_id) values ('http://x.mod.test/n/1', 'note', ?1, ?2)",
    )
      .bind(farNote, far.id)
      .run();
    // A like made just before the suspension is still in the queue when it takes effect.
    expect((await mo.call("POST", `/v1/likes/${farNote}?t=note`)).status).toBe(200);
    const actor = `${A.origin}/ap/users/${mo.id}`;
    expect(await acted("user", mo.id, "suspend")).toEqual([{ host: "f.mod.test", type: "Delete", object: actor }]);
    expect(await acted("user", mo.id, "unsuspend")).toEqual([{ host: "f.mod.test", type: "Update", object: actor }]);
  });
});
