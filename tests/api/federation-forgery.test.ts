// A signature counts for an actor only when that actor's own document lists the key: a key on an
// attacker's server that claims `owner: <someone else>` (or a Multikey claiming `controller`) proves
// nothing, whether it signs the request (HTTP Signatures), the object (Object Integrity Proofs) or
// the JSON-LD (Linked Data Signatures); and no remote actor lives on this instance's own origin.
// Two NoteX instances (tests/fediverse.ts) and an attacker's server that only serves documents.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, type Instance, instance, migrate, type Person, person, routeFetch } from "../fediverse";

const A = instance("ours.test", env.DB);
const B = instance("peer.test", env.DB_B);
const both = [A, B];
const EVIL = "http://evil.test";

/** The attacker's server: any document put here is served as activity+json. */
const docs = new Map<string, unknown>();
const evil = {
  host: "evil.test",
  fetch: async (request: Request) => {
    const url = new URL(request.url);
    const doc = docs.get(`${url.origin}${url.pathname}`);
    return doc
      ? new Response(JSON.stringify(doc), { headers: { "content-type": "application/activity+json" } })
      : new Response("not found", { status: 404 });
  },
} as unknown as Instance;

let unroute: () => void;
let ada: Person; // on ours.test
let bob: Person; // on peer.test: the victim
let bobOnA = 0;
let adaNote = 0;
let bobNoteUri = "";
let rsa: CryptoKeyPair; // the attacker's key, claimed to be bob's (or ada's)
let mallory: CryptoKeyPair; // the attacker's own actor's genuine key
let ed: CryptoKeyPair; // the attacker's Ed25519 key, claimed to be bob's

const one = (inst: Instance, sql: string, ...args: unknown[]) =>
  inst.env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);
const bobUri = () => `${B.origin}/ap/users/${bob.id}`;
const adaUri = () => `${A.origin}/ap/users/${ada.id}`;
const AS = "https://www.w3.org/ns/activitystreams";
const PUBLIC = `${AS}#Public`;

async function serveKey(path: string, owner: string, key: CryptoKey) {
  const { CryptographicKey } = await import("@fedify/vocab");
  docs.set(
    `${EVIL}${path}`,
    await new CryptographicKey({ id: new URL(`${EVIL}${path}`), owner: new URL(owner), publicKey: key }).toJsonLd(),
  );
}

/** POSTs `body` to ours.test's shared inbox, signed with `key` under `keyId` (no signature without a key). */
async function post(body: object, keyId?: string, key?: CryptoKey, spec?: "rfc9421") {
  const { signRequest } = await import("@fedify/fedify");
  const request = new Request(`${A.origin}/ap/inbox`, {
    method: "POST",
    headers: { "content-type": "application/activity+json" },
    body: JSON.stringify(body),
  });
  return globalThis.fetch(keyId && key ? await signRequest(request, key, new URL(keyId), { spec }) : request);
}

const forgedNote = (n: string, actor = bobUri(), origin = B.origin) => ({
  id: `${origin}/ap/notes/forged-${n}`,
  type: "Note",
  attributedTo: actor,
  content: `<p>forged ${n}</p>`,
  to: PUBLIC,
  cc: [adaUri()],
  tag: [{ type: "Mention", href: adaUri() }],
});
const createOf = (n: string, actor = bobUri(), origin = B.origin) => ({
  "@context": AS,
  id: `${actor}#create-forged-${n}`,
  type: "Create",
  actor,
  to: PUBLIC,
  object: forgedNote(n, actor, origin),
});
const stored = (uri: string) => one(A, "select count(*) as n from remote_objects where uri = ?", uri);

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B, evil]);
  const { generateCryptoKeyPair } = await import("@fedify/fedify");
  rsa = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  mallory = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  ed = await generateCryptoKeyPair("Ed25519");
  ada = await person(A, "adaforge");
  bob = await person(B, "bobforge");
  // Ada follows bob (so his posts are stored here) and has a note; bob has a note here.
  bobOnA = (await ada.call("GET", "/v1/users/bobforge@peer.test")).body.id;
  expect((await ada.call("POST", `/v1/follows/${bobOnA}`)).status).toBe(200);
  adaNote = (await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Ada's note</p>" })).body.note.id;
  const bobNote = (await bob.call("POST", "/v1/notes", { label: "work", content: "<p>Bob's real note</p>" })).body.note;
  await drain(both);
  bobNoteUri = `${B.origin}/ap/notes/${bobNote.id}`;
  expect(await stored(bobNoteUri)).toBe(1);

  await serveKey("/keys/bob", bobUri(), rsa.publicKey);
  await serveKey("/keys/ada", adaUri(), rsa.publicKey);
  const { Multikey, Person: P, CryptographicKey } = await import("@fedify/vocab");
  docs.set(
    `${EVIL}/keys/bob-ed`,
    await new Multikey({
      id: new URL(`${EVIL}/keys/bob-ed`),
      controller: new URL(bobUri()),
      publicKey: ed.publicKey,
    }).toJsonLd(),
  );
  // Mallory is a real actor on the attacker's server, with her own key (a genuine HTTP signer).
  const mal = new URL(`${EVIL}/users/mallory`);
  docs.set(
    mal.href,
    await new P({
      id: mal,
      preferredUsername: "mallory",
      inbox: new URL(`${EVIL}/users/mallory/inbox`),
      publicKey: new CryptographicKey({
        id: new URL(`${mal.href}#main-key`),
        owner: mal,
        publicKey: mallory.publicKey,
      }),
    }).toJsonLd(),
  );
}, 120_000);
afterAll(() => unroute());

describe("a key whose document claims someone else as its owner (HTTP Signatures)", () => {
  const key = `${EVIL}/keys/bob`;

  it("a forged Create as bob is refused with 401 and stores nothing", async () => {
    const before = await one(A, "select count(*) as n from notes");
    for (const spec of [undefined, "rfc9421"] as const) {
      const res = await post(createOf(`c-${spec ?? "cavage"}`), key, rsa.privateKey, spec);
      expect(res.status, spec ?? "draft-cavage").toBe(401);
    }
    await drain(both);
    expect(await one(A, "select count(*) as n from notes")).toBe(before);
    expect(await stored(`${B.origin}/ap/notes/forged-c-cavage`)).toBe(0);
  });

  it("a forged Delete of bob's note is refused and the note stays", async () => {
    const res = await post(
      { "@context": AS, id: `${bobUri()}#delete-forged`, type: "Delete", actor: bobUri(), object: bobNoteUri },
      key,
      rsa.privateKey,
    );
    expect(res.status).toBe(401);
    await drain(both);
    expect(await stored(bobNoteUri)).toBe(1);
  });

  it("a forged Like of ada's note is refused and counts nothing", async () => {
    const res = await post(
      {
        "@context": AS,
        id: `${bobUri()}#like-forged`,
        type: "Like",
        actor: bobUri(),
        object: `${A.origin}/ap/notes/${adaNote}`,
      },
      key,
      rsa.privateKey,
    );
    expect(res.status).toBe(401);
    await drain(both);
    expect(await one(A, "select likenum as n from notes where id = ?", adaNote)).toBe(0);
  });

  it("a forged Follow of ada is refused and no follow stands", async () => {
    const res = await post(
      { "@context": AS, id: `${bobUri()}#follow-forged`, type: "Follow", actor: bobUri(), object: adaUri() },
      key,
      rsa.privateKey,
    );
    expect(res.status).toBe(401);
    await drain(both);
    expect(
      await one(A, "select count(*) as n from follows where follower_id = ? and followee_id = ?", bobOnA, ada.id),
    ).toBe(0);
  });

  it("a forged Update(Person) cannot rewrite bob's name or inbox", async () => {
    const bobHere = () =>
      A.env.DB.prepare(
        "select r.inbox, u.fullname from remote_actors r join users u on u.id = r.user_id where r.uri = ?",
      )
        .bind(bobUri())
        .first<{ inbox: string; fullname: string }>();
    const before = await bobHere();
    expect(before?.inbox).toBe(`${bobUri()}/inbox`);
    const fake = {
      id: bobUri(),
      type: "Person",
      preferredUsername: "bobforge",
      name: "Mallory in disguise",
      inbox: `${EVIL}/inbox`,
    };
    const res = await post(
      { "@context": AS, id: `${bobUri()}#update-forged`, type: "Update", actor: fake, object: fake },
      key,
      rsa.privateKey,
    );
    expect(res.status).toBe(401);
    await drain(both);
    expect(await bobHere()).toEqual(before);
  });

  it("a key claiming a person of this instance is refused, and no remote copy of her is made", async () => {
    const res = await post(createOf("own", adaUri(), A.origin), `${EVIL}/keys/ada`, rsa.privateKey);
    expect(res.status).toBe(401);
    await drain(both);
    expect(await one(A, "select count(*) as n from remote_actors where uri like ?", `${A.origin}/%`)).toBe(0);
    expect(await one(A, "select count(*) as n from remote_objects where uri like ?", `${A.origin}/%`)).toBe(0);
  });
});

describe("proofs inside the body made with a key that claims bob", () => {
  it("an Object Integrity Proof without an HTTP signature is refused", async () => {
    const res = await post(await withProof(createOf("oip"), `${EVIL}/keys/bob-ed`));
    expect(res.status).toBe(401);
    await drain(both);
    expect(await stored(`${B.origin}/ap/notes/forged-oip`)).toBe(0);
  });

  it("a Linked Data Signature without an HTTP signature is refused", async () => {
    const res = await post(await withLdSignature(createOf("ld"), `${EVIL}/keys/bob`));
    expect(res.status).toBe(401);
    await drain(both);
    expect(await stored(`${B.origin}/ap/notes/forged-ld`)).toBe(0);
  });

  it("either one, relayed by another actor's genuine HTTP signature, is refused too", async () => {
    const signer = `${EVIL}/users/mallory#main-key`;
    const oip = await post(await withProof(createOf("oip-relayed"), `${EVIL}/keys/bob-ed`), signer, mallory.privateKey);
    const ld = await post(
      await withLdSignature(createOf("ld-relayed"), `${EVIL}/keys/bob`),
      signer,
      mallory.privateKey,
    );
    expect(oip.status).toBe(401);
    expect(ld.status).toBe(401);
    await drain(both);
    expect(await stored(`${B.origin}/ap/notes/forged-oip-relayed`)).toBe(0);
    expect(await stored(`${B.origin}/ap/notes/forged-ld-relayed`)).toBe(0);
  });
});

async function withProof(activity: object, keyId: string) {
  const { signObject } = await import("@fedify/fedify");
  const { Create } = await import("@fedify/vocab");
  const create = await Create.fromJsonLd(activity);
  const signed = await signObject(create, ed.privateKey, new URL(keyId));
  return (await signed.toJsonLd({ format: "compact" })) as object;
}

async function withLdSignature(activity: object, keyId: string) {
  const { signJsonLd } = await import("@fedify/fedify");
  return (await signJsonLd(
    { ...activity, "@context": [AS, "https://w3id.org/security/v1"] },
    rsa.privateKey,
    new URL(keyId),
    {},
  )) as object;
}
