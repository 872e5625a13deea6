// A renote taken back and made again is a new Announce with a new id: Fedify peers drop an
// activity id they have already seen (for a day), so a re-used id would leave the second renote
// unseen there. Two instances as in federation-e2e.test.ts: the renote goes to the original's
// server, which keeps each Announce by its id.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, instance, migrate, one, type Person, person, routeFetch } from "../fediverse";

const A = instance("again-a.test", env.DB);
const B = instance("again-b.test", env.DB_B);
const both = [A, B];
let unroute: () => void;
let ann: Person; // on A, renotes
let bob: Person; // on B, wrote the note
let noteOnA = 0; // bob's note as A stores it
let noteOnB = 0;

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch(both);
  ann = await person(A, "againann");
  bob = await person(B, "againbob");
  const bobOnA = (await ann.call("GET", `/v1/users/againbob@${B.host}`)).body.id;
  expect((await ann.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
  await drain(both);
  noteOnB = (await bob.call("POST", "/v1/notes", { label: "work", content: "<p>share me</p>" })).body.note.id;
  await drain(both);
  noteOnA = await one(A, "select row_id n from remote_objects where kind = 'note' and user_id = ?", bobOnA);
  expect(noteOnA).toBeGreaterThan(0);
}, 120_000);
afterAll(() => unroute());

const announces = () =>
  B.env.DB.prepare("select uri from remote_objects where kind = 'renote' order by uri")
    .all<{ uri: string }>()
    .then((r) => r.results.map((x) => x.uri));
const renum = () => one(B, "select renum n from notes where id = ?", noteOnB);

describe("a renote after its undo", () => {
  it("goes out as a new Announce, which the original's server counts again", async () => {
    expect((await ann.call("POST", "/v1/renotes", { renote_id: noteOnA, content: "" })).status).toBe(201);
    await drain(both);
    const first = await announces();
    expect([first.length, await renum()]).toEqual([1, 1]);
    expect((await ann.call("DELETE", `/v1/renotes/${noteOnA}`)).status).toBe(200);
    await drain(both);
    expect([await announces(), await renum()]).toEqual([[], 0]);
    expect((await ann.call("POST", "/v1/renotes", { renote_id: noteOnA, content: "" })).status).toBe(201);
    await drain(both);
    const second = await announces();
    expect([second.length, await renum()]).toEqual([1, 1]);
    expect(second[0]).not.toBe(first[0]);
  });
});
