// A like or a follow between two people of this server queues nothing (no message, no consumer
// invocation: both cost the worker CPU); one that concerns someone on another server still does.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { instance, noteBy, type Person, person, standInFar } from "../fediverse";

const A = instance("localq.test", env.DB);
let ada: Person;
let bob: Person;
let far: Person;
let adaNote: number;
let farNote: number;

beforeAll(async () => {
  ada = await person(A, "lqada");
  bob = await person(A, "lqbob");
  far = await person(A, "lqfar");
  adaNote = await noteBy(ada, "local");
  farNote = await noteBy(far, "from elsewhere");
  // `far` stands for someone on another server, and their note for a post stored from there.
  await standInFar(env.DB, far.id, farNote);
  A.queue.items.splice(0);
});

describe("local interactions queue nothing", () => {
  it("a like and its undo of a local note", async () => {
    expect((await bob.call("POST", `/v1/likes/${adaNote}?t=note`)).body).toMatchObject({ liked: true, likenum: 1 });
    expect((await bob.call("DELETE", `/v1/likes/${adaNote}?t=note`)).body).toMatchObject({ liked: false, likenum: 0 });
    expect(A.queue.items).toEqual([]);
  });

  it("a follow and its undo of a local person", async () => {
    expect((await bob.call("POST", `/v1/follows/${ada.id}`)).body).toEqual({ following: true, followers: 1 });
    expect((await bob.call("DELETE", `/v1/follows/${ada.id}`)).body).toEqual({ following: false, followers: 0 });
    expect(A.queue.items).toEqual([]);
  });

  it("a like and a follow of someone elsewhere are each queued", async () => {
    expect((await bob.call("POST", `/v1/likes/${farNote}?t=note`)).status).toBe(200);
    expect((await bob.call("POST", `/v1/follows/${far.id}`)).status).toBe(200);
    expect((await bob.call("DELETE", `/v1/follows/${far.id}`)).status).toBe(200);
    expect(A.queue.items).toMatchObject([
      { notex: "like", op: "create", uid: bob.id, kind: "note", id: farNote },
      { notex: "follow", op: "create", uid: bob.id, target: far.id },
      { notex: "follow", op: "delete", uid: bob.id, target: far.id },
    ]);
  });
});
