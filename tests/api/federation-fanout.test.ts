// Posting to many followers elsewhere costs the author's request nothing more: an author with
// 10,000 followers on 500 servers posts with the same D1 trips and rows as one with none, the
// request puts one small message on the queue, and the consumer turns it into one fan-out message
// that expands into one delivery per server (their shared inboxes), never one per follower.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { instance, type Person, person } from "../fediverse";
import worker from "../worker";

const A = instance("fan.test", env.DB);
const FOLLOWERS = 10_000;
const SERVERS = 500;
let popular: Person;
let plain: Person;

beforeAll(async () => {
  await import("../../worker/features/federation/federation");
  popular = await person(A, "fanpopular");
  plain = await person(A, "fanplain");
  // 10,000 people on 500 servers (20 each, one shared inbox per server), all following `popular`.
  const db = A.env.DB;
  await db.batch([
    db
      .prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?1)
       insert into users (username, email, fullname, confirmed)
       select 'f' || i || '@s' || (i % ?2) || '.fans.test', 'http://s' || (i % ?2) || '.fans.test/users/f' || i, 'f' || i, 1 from n`,
      )
      .bind(FOLLOWERS, SERVERS),
    db.prepare(
      `insert into remote_actors (user_id, uri, host, inbox, shared_inbox, url, fetched_at)
       select id, email, substr(username, instr(username, '@') + 1), email || '/inbox',
         'http://' || substr(username, instr(username, '@') + 1) || '/inbox', '', 0
       from users where username like '%.fans.test'`,
    ),
    db
      .prepare(
        "insert into follows (follower_id, followee_id, remote) select user_id, ?, 1 from remote_actors where host like '%.fans.test'",
      )
      .bind(popular.id),
    db.prepare("update users set follower_num = ? where id = ?").bind(FOLLOWERS, popular.id),
  ]);
}, 120_000);

/** The D1 meter of a response (worker/db/meter.ts's Server-Timing). */
function meter(headers: Headers) {
  const h = headers.get("server-timing") ?? "";
  const rows = /d1-rows;desc="(\d+) read (\d+) written"/.exec(h);
  return {
    trips: Number(/d1;desc="(\d+) round trips"/.exec(h)?.[1]),
    read: Number(rows?.[1]),
    written: Number(rows?.[2]),
  };
}

async function post(who: Person, text: string) {
  const res = await who.call("POST", "/v1/notes", { label: "work", content: `<p>${text}</p>` });
  expect(res.status).toBe(201);
  return { cost: meter(res.headers), queued: A.queue.items.splice(0) };
}

let seq = 0;
async function consume(bodies: unknown[]) {
  const batch = createMessageBatch(
    "notex-federation",
    bodies.map((body) => ({ id: `f${seq++}`, timestamp: new Date(), attempts: 1, body })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, A.env);
  expect((await getQueueResult(batch, ctx)).retryMessages).toEqual([]);
  return A.queue.items.splice(0) as { type?: string; inbox?: string; inboxes?: Record<string, unknown> }[];
}

describe("fan-out to followers elsewhere", () => {
  it("the author's POST costs the same with 10,000 followers on 500 servers as with none; only the first queues, one message", async () => {
    // Each has posted once already (the x-label's first note creates its count row).
    await post(popular, "warm");
    await post(plain, "warm");
    const many = await post(popular, "To ten thousand");
    const none = await post(plain, "To nobody");
    // The same trips and, within the bench's own rule for popular vs fresh (±2), the same rows:
    // without the partial index of local follows this read 70,000 rows more (new-note notices).
    expect(many.cost.trips).toBe(none.cost.trips);
    expect(Math.abs(many.cost.read - none.cost.read)).toBeLessThanOrEqual(2);
    expect(many.cost.written).toBe(none.cost.written);
    // Who must hear of it elsewhere is decided in the post's own batch (notes/post.action.ts):
    // an author with nobody elsewhere queues nothing.
    expect(many.queued).toHaveLength(1);
    expect(none.queued).toEqual([]);
    expect(JSON.stringify(many.queued[0]).length).toBeLessThan(200);

    // The consumer: one fan-out message, which expands into one delivery per server, to its
    // shared inbox.
    const fanout = await consume(many.queued);
    expect(fanout.map((m) => m.type)).toEqual(["fanout"]);
    expect(Object.keys(fanout[0].inboxes ?? {})).toHaveLength(SERVERS);
    const deliveries = await consume(fanout);
    expect(deliveries.every((m) => m.type === "outbox")).toBe(true);
    const hosts = deliveries.map((m) => new URL(m.inbox ?? "").host);
    expect(deliveries).toHaveLength(SERVERS);
    expect(new Set(hosts).size).toBe(SERVERS);
    expect(deliveries.every((m) => m.inbox?.endsWith(".fans.test/inbox"))).toBe(true);
  });
});
