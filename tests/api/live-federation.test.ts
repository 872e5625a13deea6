// Remote posts stream too: a Create from another server, stored by the inbox, reaches the streams of
// the people here who follow its author, as a post made here does. Two instances as in
// federation-e2e.test.ts (tests/fediverse.ts); the sockets are the first instance's.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appToken, connect, drain, type Instance, instance, noteBy, type Person, person } from "../fediverse";
import { closeAndSettle, type Frame, TestSocket } from "../live";

const A = instance("c.test", env.DB);
const B = instance("d.test", env.DB_B);
// The hubs are one namespace reading the first instance's database: the second streams nothing
// (its own posts' fan-out would read its ids in the wrong database).
(B.env as { LIVE?: unknown }).LIVE = undefined;
const both = [A, B];
let undo: () => void;
let ada: Person;
let bob: Person;

beforeAll(async () => {
  undo = await connect(both);
  ada = await person(A, "adalive");
  bob = await person(B, "boblive");
  const bobOnA = (await ada.call("GET", "/v1/users/boblive@d.test")).body.id;
  expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
  await drain(both);
}, 120_000);
afterAll(() => undo());

/** A streaming socket on `inst` with `token`. */
async function streamOn(inst: Instance, token: string, stream: string) {
  const res = await inst.fetch(
    new Request(`${inst.origin}/api/v1/streaming?access_token=${token}&stream=${stream}`, {
      headers: { Upgrade: "websocket" },
    }),
  );
  expect(res.status).toBe(101);
  return new TestSocket(res.webSocket as WebSocket, res);
}

const updateWith = (text: string) => (f: Frame) =>
  f.event === "update" && JSON.parse(f.payload ?? "{}").content?.includes(text);

it("a followed person's post from another server reaches the user and public streams here", async () => {
  const token = await appToken(A, ada);
  const home = await streamOn(A, token, "user");
  const pub = await streamOn(A, token, "public");
  await noteBy(bob, "Hello from d.test");
  await drain(both);
  const update = await home.next(updateWith("Hello from d.test"), 5000);
  expect(JSON.parse(update?.payload ?? "{}").account).toMatchObject({ acct: "boblive@d.test" });
  expect(await pub.next(updateWith("Hello from d.test"), 5000)).not.toBeNull();
  await closeAndSettle(A.env.DB, ada.id, home, pub);
}, 60_000);
