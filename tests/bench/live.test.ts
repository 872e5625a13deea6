// npm run bench:live — the live streams' two numbers, in the workers runtime on loopback:
// 1. post → `update` on followers' streams: p50/p99 over every (post, follower) pair, with
//    FOLLOWERS real sockets connected (Mastodon streaming, token by access_token);
// 2. the posting request's own cost with 0 and with ONLINE connected followers (their presence
//    rows: the request does the same whatever their number, the fan-out runs after it): the
//    median time to the answer, and its D1 trips from Server-Timing.
import { env } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import type { Env } from "../../worker/env";
import { createSession } from "../../worker/lib/sessions";
import { user } from "../factories";
import { openSocket, type TestSocket } from "../live";

// LIVE_BENCH="followers,online,posts" scales it down on a busy machine (vitest.live-bench.config.ts).
const [FOLLOWERS, ONLINE, POSTS] = inject("liveBench");
const DB = (env as unknown as Env).DB;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** `n` people (rows only, no signup) following `author`; answers their ids. */
async function followers(n: number, author: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 50) {
    const rows = Array.from(
      { length: Math.min(50, n - i) },
      (_, j) => `('${tag}${i + j}', '${tag}${i + j}@bench.test', 'Bench ${i + j}')`,
    );
    const made = await DB.prepare(
      `insert into users (username, email, fullname) values ${rows.join(",")} returning id`,
    ).all<{ id: number }>();
    ids.push(...made.results.map((r) => r.id));
  }
  for (let i = 0; i < ids.length; i += 90) {
    const part = ids.slice(i, i + 90);
    await DB.prepare(
      `insert into follows (follower_id, followee_id) values ${part.map(() => `(?, ${author})`).join(",")}`,
    )
      .bind(...part)
      .run();
  }
  return ids;
}

it("measures the live streams", async () => {
  const { exports } = await import("cloudflare:workers");
  const worker = (exports as any).default;
  // Posting through the runtime's loopback: the answer returns before the fan-out (waitUntil) ends.
  const post = async (author: { token: string | null }, i: number) => {
    const started = performance.now();
    const res: Response = await worker.fetch(
      new Request("http://notex.test/v1/notes", {
        method: "POST",
        headers: { authorization: `Bearer ${author.token}`, "content-type": "application/json" },
        body: JSON.stringify({ label: "idea", content: `<p>bench post ${i}</p>` }),
      }),
    );
    const ms = performance.now() - started;
    const trips = Number(/d1;desc="(\d+) round trips"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? Number.NaN);
    return { started, ms, trips, id: (await res.json<{ note: { id: number } }>()).note.id };
  };

  // 1. Latency with FOLLOWERS sockets.
  const author = await user();
  const ids = await followers(FOLLOWERS, author.id, `bf${Date.now().toString(36)}`);
  const appToken = async (uid: number) =>
    (
      await createSession((env as unknown as Env).SESSIONS, uid, {
        device: "bench",
        app: { clientId: "bench", name: "Bench", scopes: ["read"] },
      })
    ).secret;
  // Opened 25 at a time: on a busy machine one by one takes about a second each.
  const sockets: TestSocket[] = [];
  for (let i = 0; i < ids.length; i += 25) {
    const opened = await Promise.all(
      ids
        .slice(i, i + 25)
        .map(
          async (uid) => (await openSocket(`/api/v1/streaming?access_token=${await appToken(uid)}&stream=user`)).socket,
        ),
    );
    sockets.push(...opened.filter((s): s is TestSocket => !!s));
  }
  expect(sockets).toHaveLength(FOLLOWERS);
  // A fresh token: the sign-up's may have expired while the sockets opened.
  author.token = (await author.get("/v1/refresh")).body.token;
  const latencies: number[] = [];
  for (let i = 0; i < POSTS; i++) {
    const { started, id } = await post(author, i);
    const payloadId = String(id * 2);
    await Promise.all(
      sockets.map(async (s) => {
        const got = await s.next((f) => f.event === "update" && !!f.payload?.includes(`"id":"${payloadId}"`), 10_000);
        if (got) latencies.push(performance.now() - started);
      }),
    );
  }
  console.log(
    `live: post → update, ${FOLLOWERS} connected followers, ${POSTS} posts: p50 ${pct(latencies, 50).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms (${latencies.length} deliveries)`,
  );
  expect(latencies.length).toBe(FOLLOWERS * POSTS);

  // 2. The posting request of one author with ONLINE followers: none of them connected, then all.
  // The sockets above stay open, so every shard holds some and the publishers do the whole fan-out
  // (the work that runs beside the next requests); their owners' presence goes.
  await DB.prepare("delete from live_presence").run();
  const busy = await user();
  await followers(ONLINE, busy.id, `bo${Date.now().toString(36)}`);
  busy.token = (await busy.get("/v1/refresh")).body.token;
  const runs = async () => {
    const out: { ms: number; trips: number }[] = [];
    for (let i = 0; i < POSTS; i++) out.push(await post(busy, i));
    return out;
  };
  await runs(); // warm the path once
  const zero = await runs();
  await DB.prepare(
    "insert into live_presence (account_id) select follower_id from follows where followee_id = ? on conflict do nothing",
  )
    .bind(busy.id)
    .run();
  const many = await runs();
  const med = (xs: { ms: number }[]) =>
    pct(
      xs.map((x) => x.ms),
      50,
    );
  console.log(
    `live: posting request, ${ONLINE} followers, 0 vs ${ONLINE} connected: median ${med(zero).toFixed(1)} ms vs ${med(many).toFixed(1)} ms (×${(med(many) / med(zero)).toFixed(2)}), D1 trips ${zero[0].trips} vs ${many[0].trips}`,
  );
  expect(many[0].trips).toBe(zero[0].trips);
  for (const s of sockets) s.close();
}, 1_800_000);
