// The live streams' two bench rows (npm run bench runs them last; npm run bench:live alone), in the
// workers runtime on loopback:
// 1. post → `update` on followers' streams: p50/p99 over every (post, follower) pair, with
//    FOLLOWERS real sockets connected (Mastodon streaming, token by access_token);
// 2. the posting request's own cost with 1 and with ONLINE connected followers (their presence
//    rows: the request does the same whatever their number, the fan-out runs after it): the
//    median time to the answer, settled and back to back, and its D1 trips from Server-Timing.
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
    if (res.status !== 201) throw new Error(`posting answered ${res.status}: ${await res.text()}`);
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
    // Opening them takes longer than a token lives on a busy machine: the author's is renewed as it goes.
    if (i % 200 === 0) author.token = (await author.get("/v1/refresh")).body.token;
  }
  expect(sockets).toHaveLength(FOLLOWERS);
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
  const update = {
    followers: FOLLOWERS,
    posts: POSTS,
    deliveries: latencies.length,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
  };
  console.log(
    `live: post → update, ${FOLLOWERS} connected followers, ${POSTS} posts: p50 ${update.p50.toFixed(0)} ms, p99 ${update.p99.toFixed(0)} ms (${latencies.length} deliveries)`,
  );
  expect(latencies.length).toBe(FOLLOWERS * POSTS);

  // 2. The posting request of one author with ONLINE followers: one of them connected (a witness),
  // then all. The sockets above stay open, so every shard holds some and the publishers do the
  // whole fan-out; their owners' presence goes. Each way twice: back to back (the request meets
  // the fan-out of the post before it, on this one machine's runtime and D1), and settled (the
  // next post once the witness has the last one's update and notice: the request's own cost).
  await DB.prepare("delete from live_presence").run();
  const busy = await user();
  const [witnessId] = await followers(ONLINE, busy.id, `bo${Date.now().toString(36)}`);
  const witness = (await openSocket(`/api/v1/streaming?access_token=${await appToken(witnessId)}&stream=user`))
    .socket as TestSocket;
  busy.token = (await busy.get("/v1/refresh")).body.token;
  const runs = async (settled: boolean) => {
    const out: { ms: number; trips: number }[] = [];
    for (let i = 0; i < POSTS; i++) {
      const sent = await post(busy, i);
      out.push(sent);
      if (!settled) continue;
      const status = `"id":"${sent.id * 2}"`;
      for (const event of ["update", "notification"])
        expect(await witness.next((f) => f.event === event && !!f.payload?.includes(status), 30_000)).not.toBeNull();
    }
    return out;
  };
  await runs(true); // warm the path once
  const zero = { back: await runs(false), settled: await runs(true) };
  await DB.prepare(
    "insert into live_presence (account_id) select follower_id from follows where followee_id = ? on conflict do nothing",
  )
    .bind(busy.id)
    .run();
  const many = { back: await runs(false), settled: await runs(true) };
  const med = (xs: { ms: number }[]) =>
    pct(
      xs.map((x) => x.ms),
      50,
    );
  const posting = {
    online: ONLINE,
    zeroMs: med(zero.settled),
    manyMs: med(many.settled),
    zeroBackMs: med(zero.back),
    manyBackMs: med(many.back),
    zeroTrips: zero.settled[0].trips,
    manyTrips: many.settled[0].trips,
  };
  console.log(
    `live: posting request, ${ONLINE} followers, 1 vs ${ONLINE} connected: settled median ${posting.zeroMs.toFixed(1)} ms vs ${posting.manyMs.toFixed(1)} ms (×${(posting.manyMs / posting.zeroMs).toFixed(2)}), back to back ${posting.zeroBackMs.toFixed(1)} ms vs ${posting.manyBackMs.toFixed(1)} ms (×${(posting.manyBackMs / posting.zeroBackMs).toFixed(2)}), D1 trips ${posting.zeroTrips} vs ${posting.manyTrips}`,
  );
  // One line for npm run bench (scripts/bench/live-rows.mjs) to read.
  console.log(`live-bench ${JSON.stringify({ update, posting })}`);
  for (const run of [...zero.back, ...many.back, ...many.settled]) expect(run.trips).toBe(posting.zeroTrips);
  for (const s of [...sockets, witness]) s.close();
}, 1_800_000);
