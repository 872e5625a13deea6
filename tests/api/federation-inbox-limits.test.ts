// Nothing costly before a delivery's signature is checked: no JSON-LD context fetched or stored for
// an unsigned body, none fetched that is not preloaded even for a signed one, nesting capped,
// malformed input a 4xx. And the delivery budget: per verified signer's server (RL_FED), with a
// small separate budget per client address for what cannot be verified (RL_FED_UNVERIFIED).
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drain, type Instance, instance, migrate, type Person, person, routeFetch, signedPost } from "../fediverse";

const A = instance("lim.test", env.DB);
const B = instance("limpeer.test", env.DB_B);
const both = [A, B];
const CTX = "http://ctx.test/context.jsonld";

/** A server of JSON-LD contexts that counts what it is asked for. */
let contextFetches = 0;
const contexts = {
  host: "ctx.test",
  fetch: async () => {
    contextFetches++;
    return new Response(JSON.stringify({ "@context": { pad: `urn:x:${"p".repeat(400_000)}` } }), {
      headers: { "content-type": "application/ld+json" },
    });
  },
} as unknown as Instance;

/** Servers that serve no keys, for junk that rotates the host its key id names. */
const keyless = Array.from({ length: 6 }, (_, i) => ({
  host: `rot${i}.test`,
  fetch: async () => new Response("not found", { status: 404 }),
})) as unknown as Instance[];

/** A stand-in for a Workers rate-limit binding: `max` calls per key. */
function limiter(max: number) {
  const spent = new Map<string, number>();
  return {
    spent,
    limit: async ({ key }: { key: string }) => {
      spent.set(key, (spent.get(key) ?? 0) + 1);
      return { success: (spent.get(key) ?? 0) <= max };
    },
  };
}

let unroute: () => void;
let ada: Person;
let bob: Person;
let noteOnA = 0;
const bobUri = () => `${B.origin}/ap/users/${bob.id}`;
const kvRows = () =>
  A.env.DB.prepare("select count(*) as n, coalesce(sum(length(value)), 0) as bytes from fed_kv").first<{
    n: number;
    bytes: number;
  }>();
const likeOf = (id: string, context: unknown = "https://www.w3.org/ns/activitystreams") => ({
  "@context": context,
  id: `${bobUri()}#likes/${id}`,
  type: "Like",
  actor: bobUri(),
  object: `${A.origin}/ap/notes/${noteOnA}`,
});
const unsigned = (body: string, address = "198.51.100.1") =>
  A.fetch(
    new Request(`${A.origin}/ap/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json", "cf-connecting-ip": address },
      body,
    }),
  );

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  unroute = routeFetch([A, B, contexts, ...keyless]);
  ada = await person(A, "adalimits");
  bob = await person(B, "boblimits");
  noteOnA = (await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Limits</p>" })).body.note.id;
  await drain(both);
}, 120_000);
afterAll(() => unroute());

describe("before the signature is checked", () => {
  it("an unsigned POST naming remote @contexts fetches none, stores nothing and answers 401", async () => {
    const before = await kvRows();
    for (let i = 0; i < 5; i++) {
      const res = await unsigned(
        JSON.stringify(likeOf(`ctx-${i}`, ["https://www.w3.org/ns/activitystreams", `${CTX}?n=${i}`])),
      );
      expect(res.status).toBe(401);
    }
    expect(contextFetches).toBe(0);
    expect(await kvRows()).toEqual(before);
  });

  it("a large unsigned body carrying a Linked Data signature is refused with 401 without any JSON-LD work", async () => {
    const before = await kvRows();
    const body = JSON.stringify({
      ...likeOf("big", [`${CTX}?big`, "https://w3id.org/security/v1"]),
      content: "x".repeat(700_000),
      signature: {
        type: "RsaSignature2017",
        creator: `${bobUri()}#main-key`,
        created: new Date().toISOString(),
        signatureValue: "AAAA",
      },
    });
    const res = await unsigned(body);
    expect(res.status).toBe(401);
    expect(contextFetches).toBe(0);
    expect(await kvRows()).toEqual(before);
  });

  it("a signed activity naming a context that is not preloaded is taken without fetching it", async () => {
    const res = await signedPost(
      B,
      bob.id,
      `${A.origin}/ap/inbox`,
      likeOf("signed-ctx", ["https://www.w3.org/ns/activitystreams", CTX]),
    );
    expect(res.status).toBeLessThan(300);
    await drain(both);
    expect(contextFetches).toBe(0);
  });

  it("a genuine signature dated two hours ago or ahead is refused with 401 and counts nothing", async () => {
    const { signRequest } = await import("@fedify/fedify");
    const { keyPairsOf } = await import("../../worker/features/federation/keys");
    const { Temporal } = await import("@js-temporal/polyfill");
    const [rsa] = await keyPairsOf(B.env, B.env.DB, bob.id);
    const likes = () => A.env.DB.prepare("select likenum as n from notes where id = ?").bind(noteOnA).first("n");
    const before = await likes();
    for (const hours of [-2, 2]) {
      const request = new Request(`${A.origin}/ap/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: JSON.stringify(likeOf(`skew${hours}`)),
      });
      const currentTime = Temporal.Now.instant().add({ hours });
      const signed = await signRequest(request, rsa.privateKey, new URL(`${bobUri()}#main-key`), { currentTime });
      expect((await globalThis.fetch(signed)).status).toBe(401);
    }
    await drain(both);
    expect(await likes()).toBe(before);
  });

  it("deeply nested JSON answers 400, not 500, signed or not", async () => {
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    const body = `{"type":"Like","actor":"${bobUri()}","object":${deep}}`;
    expect((await unsigned(body)).status).toBe(401);
    const { signRequest } = await import("@fedify/fedify");
    const { keyPairsOf } = await import("../../worker/features/federation/keys");
    const [rsa] = await keyPairsOf(B.env, B.env.DB, bob.id);
    for (const text of [body, `{"type":"Like","actor":${"{".repeat(100)}`]) {
      const request = new Request(`${A.origin}/ap/inbox`, {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: text,
      });
      const res = await globalThis.fetch(await signRequest(request, rsa.privateKey, new URL(`${bobUri()}#main-key`)));
      expect(res.status).toBe(400);
    }
  });
});

describe("delivery budgets", () => {
  let forger: CryptoKeyPair;
  beforeAll(async () => {
    const { generateCryptoKeyPair } = await import("@fedify/fedify");
    forger = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  });

  /** Junk naming bob's key (signed with a key that is not his), from one address. */
  async function junk(address: string, keyHost = B.host) {
    const { signRequest } = await import("@fedify/fedify");
    const request = new Request(`${A.origin}/ap/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json", "cf-connecting-ip": address },
      body: JSON.stringify(likeOf(`junk-${Math.random()}`)),
    });
    const keyId = new URL(`http://${keyHost}/ap/users/${bob.id}#main-key`);
    return A.fetch(await signRequest(request, forger.privateKey, keyId));
  }

  it("junk naming a peer does not spend that peer's budget: its genuine delivery still passes", async () => {
    const e = A.env as unknown as Record<string, unknown>;
    e.RL_FED = limiter(5);
    e.RL_FED_UNVERIFIED = limiter(3);
    try {
      for (let i = 0; i < 10; i++) expect([401, 429]).toContain((await junk(`203.0.113.${i}`)).status);
      const res = await signedPost(B, bob.id, `${A.origin}/ap/inbox`, likeOf("genuine"));
      expect(res.status).toBeLessThan(300);
    } finally {
      e.RL_FED = undefined;
      e.RL_FED_UNVERIFIED = undefined;
    }
  });

  it("junk from one address is limited, whatever server its key names", async () => {
    const e = A.env as unknown as Record<string, unknown>;
    e.RL_FED = limiter(5);
    e.RL_FED_UNVERIFIED = limiter(3);
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await junk("192.0.2.7", i % 2 ? B.host : `rot${i}.test`)).status);
      expect(statuses.slice(0, 3).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(3)).toEqual([429, 429, 429]);
      // Another address still has its own budget.
      expect((await junk("192.0.2.8")).status).toBe(401);
    } finally {
      e.RL_FED = undefined;
      e.RL_FED_UNVERIFIED = undefined;
    }
  });
});
