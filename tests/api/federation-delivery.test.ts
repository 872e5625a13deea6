// Delivery under failure, through the worker's own queue() handler on real D1: a server that
// answers 500 is retried with backoff, given up into the dead-letter queue after MAX_ATTEMPTS,
// and, failing again and again, skipped for a while by the circuit breaker (and logged); inbound
// deliveries are rate-limited per verified sending server; no queue message carries a secret.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { backoff, MAX_ATTEMPTS } from "../../worker/features/federation/consumer";
import { drain, instance, MemoryQueue, migrate, type Person, person, routeFetch, signedPost } from "../fediverse";
import worker from "../worker";

const A = instance("p.test", env.DB);
const B = instance("q.test", env.DB_B);
const dlq = new MemoryQueue();
const envA = { ...A.env, FED_DLQ: dlq as unknown as Queue<unknown> };
let unroute: () => void;
let ada: Person;
/** Requests that reached down.test, the server that always fails. */
let downHits = 0;

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  await migrate(env.DB_B);
  const routed = routeFetch([A, B]);
  const inner = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (new URL(request.url).host !== "down.test") return inner(request);
    downHits++;
    return new Response("down for maintenance", { status: 500 });
  }) as typeof fetch;
  unroute = () => {
    globalThis.fetch = inner;
    routed();
  };
  ada = await person(A, "adadeliver");
}, 120_000);
afterAll(() => unroute());

/** Someone on down.test who follows `uid` (as if their Follow had arrived). */
async function followerOnDownTest(name: string, uid: number) {
  const uri = `http://down.test/users/${name}`;
  await A.env.DB.batch([
    A.env.DB.prepare("insert into users (username, email, fullname, confirmed) values (?, ?, ?, 1)").bind(
      `${name}@down.test`,
      uri,
      name,
    ),
    A.env.DB.prepare(
      "insert into remote_actors (user_id, uri, host, inbox, shared_inbox, url, fetched_at) values ((select id from users where email = ?1), ?1, 'down.test', ?2, null, '', 0)",
    ).bind(uri, `http://down.test/users/${name}/inbox`),
    A.env.DB.prepare(
      "insert into follows (follower_id, followee_id, remote) values ((select id from users where email = ?), ?, 1)",
    ).bind(uri, uid),
  ]);
}

let seq = 0;
/** One batch through A's queue() handler, every message at `attempts`; answers what it asked and what it queued. */
async function consumeOnce(bodies: unknown[], attempts = 1) {
  const batch = createMessageBatch(
    "notex-federation",
    bodies.map((body) => ({ id: `d${seq++}`, timestamp: new Date(), attempts, body })),
  );
  // The delay each retry asked for (the pool's queue result keeps only which messages retried).
  const delays: (number | undefined)[] = [];
  for (const m of batch.messages) {
    const retry = m.retry.bind(m);
    m.retry = (options?: QueueRetryOptions) => {
      delays.push(options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, envA);
  const result = await getQueueResult(batch, ctx);
  return { result, delays, queued: A.queue.items.splice(0) };
}

/** Ada posts; her one queue message becomes Fedify's deliveries (one per inbox): those are answered. */
async function deliveriesOfAPost(text: string) {
  expect((await ada.call("POST", "/v1/notes", { label: "work", content: `<p>${text}</p>` })).status).toBe(201);
  const [message] = A.queue.items.splice(0);
  let { queued } = await consumeOnce([message]);
  // A fan-out message (many inboxes) expands into one outbox message per inbox.
  while (queued.some((m) => (m as { type?: string }).type === "fanout")) queued = (await consumeOnce(queued)).queued;
  return queued.filter((m) => (m as { type?: string }).type === "outbox");
}

describe("delivery under failure", () => {
  let delivery: unknown;
  it("a delivery to a server answering 500 is retried with backoff (30 s, doubling)", async () => {
    await followerOnDownTest("carl", ada.id);
    [delivery] = await deliveriesOfAPost("To a server that is down");
    expect(delivery).toMatchObject({ type: "outbox", inbox: "http://down.test/users/carl/inbox" });
    const first = await consumeOnce([delivery], 1);
    expect(first.result.retryMessages).toHaveLength(1);
    expect(first.delays).toEqual([30]);
    const third = await consumeOnce([delivery], 3);
    expect(third.delays).toEqual([120]);
    expect(backoff(20)).toBe(3600);
    expect(dlq.items).toEqual([]);
  });

  it(`after ${MAX_ATTEMPTS} tries it is given up into the dead-letter queue (acknowledged, logged)`, async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((s: unknown) => void logged.push(String(s)));
    const last = await consumeOnce([delivery], MAX_ATTEMPTS);
    vi.restoreAllMocks();
    expect(last.result.retryMessages).toEqual([]);
    expect(last.result.explicitAcks).toHaveLength(1);
    expect(dlq.items).toEqual([delivery]);
    expect(logged.some((l) => l.includes('"t":"federation.dead"'))).toBe(true);
  });

  it("a server that keeps failing opens its circuit: deliveries are held without a request, and it is logged", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((s: unknown) => void logged.push(String(s)));
    downHits = 0;
    let held: unknown[] = [];
    // Fedify's default: 5 failures within 10 minutes open the circuit (earlier tests failed 3 times).
    for (let i = 0; i < 5 && !held.length; i++) {
      const { result, queued } = await consumeOnce([delivery], 1);
      held = queued.filter((m) => (m as { circuitHeld?: boolean }).circuitHeld);
      if (!held.length) expect(result.retryMessages).toHaveLength(1);
    }
    expect(held).toHaveLength(1);
    expect(logged.some((l) => l.includes('"t":"federation.circuit"') && l.includes('"to":"open"'))).toBe(true);
    const hits = downHits;
    // While open: the held delivery and a new one go back on the queue, and down.test hears nothing.
    const again = await consumeOnce([held[0], delivery], 1);
    vi.restoreAllMocks();
    expect(downHits).toBe(hits);
    expect(again.result.retryMessages).toEqual([]);
    expect(again.queued.filter((m) => (m as { circuitHeld?: boolean }).circuitHeld)).toHaveLength(2);
  });
});

describe("inbound rate limit and queue contents", () => {
  it("verified deliveries are rate-limited per signing server; unverifiable ones spend a budget of their own per address", async () => {
    const counts = new Map<string, number>();
    const limiter = {
      limit: async ({ key }: { key: string }) => {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return { success: (counts.get(key) ?? 0) <= 2 };
      },
    };
    const e = A.env as unknown as Record<string, unknown>;
    e.RL_FED = limiter;
    e.RL_FED_UNVERIFIED = limiter;
    try {
      const bob = await person(B, "bobflood");
      const like = (i: number) => ({
        id: `${B.origin}/ap/users/${bob.id}#flood-${i}`,
        type: "Like",
        actor: `${B.origin}/ap/users/${bob.id}`,
        object: `${A.origin}/ap/notes/999999`,
      });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await signedPost(B, bob.id, `${A.origin}/ap/inbox`, like(i))).status);
      expect(statuses.slice(0, 2).every((s) => s < 300)).toBe(true);
      expect(statuses[2]).toBe(429);
      // A signature that cannot be verified, naming another host: refused, from the address's budget.
      const junk = await A.fetch(
        new Request(`${A.origin}/ap/inbox`, {
          method: "POST",
          headers: {
            "content-type": "application/activity+json",
            "cf-connecting-ip": "198.51.100.9",
            signature: `keyId="https://calm.example/users/x#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="AAAA"`,
          },
          body: "{}",
        }),
      );
      expect(junk.status).toBe(401);
      expect([...counts.keys()]).toEqual(["q.test", "u:198.51.100.9"]);
    } finally {
      e.RL_FED = undefined;
      e.RL_FED_UNVERIFIED = undefined;
    }
  });

  it("no queue message carries a private key or a secret, and the deliveries still arrive signed", async () => {
    // down.test's circuit is open (above): its follower goes, so the queues can empty.
    await A.env.DB.prepare(
      "delete from follows where follower_id = (select user_id from remote_actors where host = 'down.test')",
    ).run();
    const seen: unknown[] = [];
    for (const q of [A.queue, B.queue]) {
      const send = q.send.bind(q);
      const sendBatch = q.sendBatch.bind(q);
      q.send = async (body: unknown) => {
        seen.push(body);
        await send(body);
      };
      q.sendBatch = async (messages: Iterable<{ body: unknown }>) => {
        const list = [...messages];
        for (const m of list) seen.push(m.body);
        await sendBatch(list);
      };
    }
    const bob = await person(B, "bobdeliver");
    const adaOnB = (await bob.call("GET", "/v1/users/adadeliver@p.test")).body.id;
    expect((await bob.call("POST", `/v1/follows/${adaOnB}`)).status).toBe(200);
    await drain([A, B]);
    expect((await ada.call("POST", "/v1/notes", { label: "work", content: "<p>Signed, not leaked</p>" })).status).toBe(
      201,
    );
    await drain([A, B]);
    expect(JSON.stringify((await bob.call("GET", "/v1/feeds")).body)).toContain("Signed, not leaked");

    const text = JSON.stringify(seen);
    expect(seen.some((m) => (m as { type?: string }).type === "outbox")).toBe(true);
    expect(text).not.toContain("privateKey");
    expect(text).not.toMatch(/"d":"/); // a private JWK's exponent
    expect(text).not.toContain("BEGIN PRIVATE KEY");
    for (const secret of [A.env.FEDERATION_SECRET, A.env.TOKEN_SECRET, A.env.UPLOAD_SECRET].filter(Boolean))
      expect(text).not.toContain(secret);
    const keys = seen.flatMap((m) => (m as { keys?: object[] }).keys ?? []);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(Object.keys(k)).toEqual(["keyId"]);
  });
});
