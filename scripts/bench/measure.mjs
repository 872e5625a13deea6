// One size of `npm run bench` (child of scripts/bench/run.mjs, which started the worker with the
// bench's entry, scripts/bench/worker.ts): every row gets a bare twin first (twins.mjs: the D1
// trips of the row's own request, captured, then replayed by a handler with no app around them).
// Then every row and its twin are measured in ROUNDS interleaved rounds (the order rotates each
// round): the row alone (concurrency 1, sequential fetches, D1 meter read from every response's
// Server-Timing), its twin alone, the row under load (autocannon, CONNECTIONS), its twin under the
// same load (timing.mjs). Then the popular/fresh pairs, their samples interleaved (pairs.mjs), and
// last the write ceiling (ceiling.mjs). This process lowers its own priority first, so on a
// 2-core machine the load generator yields to the worker instead of starving it.
// Args: JSON { base, meta, rounds, duration, solo, connections, pairs: { blocks, seconds },
// ceiling: { clients, seconds }, out, workerPid, actorPort, only }.
import { setPriority } from "node:os";
import { writeFileSync } from "node:fs";
import { writeCeiling } from "./ceiling.mjs";
import { startPeer } from "./peer.mjs";
import { PAIRS, timePair } from "./pairs.mjs";
import { auth, get, people, posting, postingAs, rotating } from "./people.mjs";
import { timers } from "./timing.mjs";
import { twinOf } from "./twins.mjs";

const cfg = JSON.parse(process.argv[2]);
const { base: BASE, meta } = cfg;
try {
  setPriority(10);
} catch {}
const { alone, loaded } = timers(BASE, cfg.workerPid);
const { login, logins, cursorFor, writers, toggle } = people(BASE);

const { pool, mastoPool, mastoToken } = await writers();
const me = await login("bench1");
const quiet = await login("quiet");
const mastoMe = await mastoToken(me);
// Discover's deep page: page 200, or half way down where the network has fewer pages (2,000 notes
// make 100): the row asks a page that exists, by its cursor, at every size.
const deepPage = Math.min(200, Math.floor(meta.notes / 20 / 2));
const deepCursor = await cursorFor("/v1/discover", deepPage);
if (!deepCursor) throw new Error(`discover has no page ${deepPage} at ${meta.notes} notes`);
process.stderr.write(`  ${meta.notes} discover deep page: page ${deepPage}\n`);
const peer = await startPeer(BASE, cfg.actorPort);
const inboxDelivery = peer.inboxDelivery;
// The authors of the posting pair (generate.mjs): each request by the next of them in turn.
const count = Array.from({ length: meta.fedAuthors }, (_, i) => i + 1);
const fedAuthors = await logins(count.map((i) => `fedauthor${i}`));
const plainAuthors = await logins(count.map((i) => `plainauthor${i}`));

/**
 * Rows: [name, kind, next-request]. kind: floor | ref | list | api | write | data (a signed-in page's
 * data, Remix single fetch) | page (a whole HTML page: no JS, a visitor's, or the signed-in shell).
 */
const rows = [
  ["floor GET /v1/health", "floor", get("/v1/health")],
  ["discover page 1", "list", get("/v1/discover?page=1")],
  [
    "discover deep page (cursor)",
    "list",
    get(`/v1/discover?page=${deepPage}&cursor=${encodeURIComponent(deepCursor)}`),
  ],
  ["feed (follows 500)", "list", get("/v1/feeds?page=1", auth(me))],
  ["feed (follows 3 quiet)", "list", get("/v1/feeds?page=1", auth(quiet))],
  ["user notes, x-label", "list", get("/v1/notes?uid=2&xlabel=idea&page=1")],
  // The least a signed-in API request can cost: its session check and one small read, one D1 trip.
  // A reference for the rows below it (no budget of its own): what any signed-in row starts from.
  ["reference: GET /v1/me (signed in, one trip)", "ref", get("/v1/me", auth(me))],
  ["note detail", "api", get(`/v1/notes/${meta.focusAuthor}/${meta.focusNote}`)],
  [
    "reply detail, 20 deep",
    "api",
    get(`/v1/replies/${meta.chainFocus}/username/bench${((meta.chainFocus - 1) % meta.users) + 1}`),
  ],
  ["tag page", "list", get("/v1/tags/edge?page=1")],
  ["folders list", "list", get("/v1/folders?uid=2&sort=time&page=1")],
  ["notifications", "list", get("/v1/notifications?page=1", auth(me))],
  // Full-text search, signed in (block and mute filters, the session check riding along): a word
  // in 10 notes at every size. RL_SEARCH allows a person 60 searches a minute, so the row's
  // requests take turns over the writers' pool, like the write rows.
  ["search notes, rare word (signed in)", "list", rotating(pool, `/v1/search?q=${meta.rareWord}&t=notes`)],
  ["like/unlike, popular note (likes = notes)", "write", await toggle(pool, `/v1/likes/${meta.popularNote}?t=note`)],
  ["like/unlike, fresh note", "write", await toggle(pool, `/v1/likes/${meta.freshNote}?t=note`)],
  ["follow/unfollow, popular user (followers = notes)", "write", await toggle(pool, `/v1/follows/${meta.popularUser}`)],
  ["follow/unfollow, fresh user", "write", await toggle(pool, `/v1/follows/${meta.freshUser}`)],
  ["SSR / (visitor)", "page", get("/", { cookie: "" })],
  ["SSR note page (visitor)", "page", get(`/${meta.focusAuthor}/note/${meta.focusNote}`)],
  ["SSR profile (visitor)", "page", get("/bench2")],
  // Signed in with JavaScript (the browser carries nx_js=1, worker/lib/shell.ts), a page view is two
  // requests, each its own row: the shared app shell, then the page's data (Remix single fetch).
  ...[
    ["/", "/", "/_root.data"],
    ["note page", `/${meta.focusAuthor}/note/${meta.focusNote}`, `/${meta.focusAuthor}/note/${meta.focusNote}.data`],
    ["profile", "/bench2", "/bench2.data"],
    ["notifications", "/notifications", "/notifications.data"],
  ].flatMap(([name, page, data]) => [
    [`SSR ${name} (signed in): shell`, "page", get(page, { cookie: `${me.cookie}; nx_js=1` })],
    [`SSR ${name} (signed in): data`, "data", get(data, { cookie: `${me.cookie}; nx_js=1` })],
  ]),
  // Without JavaScript the page is rendered for the person in full, as before.
  ["SSR / (signed in, no JS)", "page", get("/", { cookie: me.cookie })],
  // The Mastodon client API, as an app uses it: the same budgets as /v1's reads and writes.
  ["mastodon: GET /api/v1/timelines/home (follows 500)", "list", get("/api/v1/timelines/home", mastoMe)],
  ["mastodon: POST /api/v1/statuses", "write", posting(mastoPool)],
  // Federation: a signed Create delivered to the shared inbox (its time and rows: verifying and
  // queueing, no ×-twin budget), and posting as an author with 10,000 followers on 500 servers
  // against one with none (a pair in run.mjs: the request must cost the same; the fan-out is the
  // queue consumer's).
  ["inbox: signed Create (shared inbox)", "fed", inboxDelivery],
  ["post a note, author with 10k followers on 500 servers", "write", postingAs(fedAuthors)],
  ["post a note, author with none elsewhere", "write", postingAs(plainAuthors)],
].filter(([name]) => !cfg.only || new RegExp(cfg.only, "i").test(name));

// Twins first (the floor row is the trivial endpoint itself: no twin), then warm every path (JIT,
// caches) before anything is recorded.
const twins = {};
for (const [i, [name, kind, next]] of rows.entries()) {
  if (kind === "floor") continue;
  twins[name] = await twinOf(BASE, i, next);
  process.stderr.write(
    `  ${meta.notes} twin of ${name}: ${twins[name].trips} D1 trips, calls ${twins[name].calls.join(" ") || "none"}\n`,
  );
}
for (const [name, , next] of rows) {
  await loaded(next, 0.5, cfg.connections);
  if (twins[name]) await loaded(twins[name].next, 0.5, cfg.connections);
}

const out = Object.fromEntries(
  rows.map(([name, kind]) => [
    name,
    { kind, twinTrips: twins[name]?.trips ?? null, twinCalls: twins[name]?.calls ?? [], rounds: [] },
  ]),
);
for (let round = 0; round < cfg.rounds; round++) {
  const order = rows.map((_, i) => rows[(i + round * 5) % rows.length]);
  for (const [name, , next] of order) {
    const twin = twins[name];
    // The row and its twin back to back, alone and then under the same load.
    const solo = await alone(next, cfg.solo);
    const twinSolo = twin ? await alone(twin.next, cfg.solo) : null;
    const load = await loaded(next, cfg.duration, cfg.connections);
    const twinLoad = twin ? await loaded(twin.next, cfg.duration, cfg.connections) : null;
    out[name].rounds.push({ solo, load, twin: twin ? { solo: twinSolo, load: twinLoad } : null });
    const vsTwin = twinLoad ? `, twin ${twinLoad.p50?.toFixed(2)} ms (${(load.p50 / twinLoad.p50).toFixed(2)}×)` : "";
    process.stderr.write(
      `  ${meta.notes} r${round + 1} ${name}: alone ${solo.p50?.toFixed(2)} ms, loaded ${load.p50?.toFixed(2)} ms${vsTwin} ` +
        `(worker CPU ${solo.cpu?.toFixed(2)} ms a request alone), ` +
        `D1 ${solo.d1.busy?.toFixed(2)} ms, rows ${solo.d1.read}/${solo.d1.written}\n`,
    );
  }
}

// Popular against fresh (pairs.mjs): each pair's two writes interleaved, the figure run.mjs judges.
const nextOf = Object.fromEntries(rows.map(([name, , next]) => [name, next]));
const pairs = {};
for (const [popular, fresh] of PAIRS) {
  if (!nextOf[popular] || !nextOf[fresh]) continue;
  const t = await timePair(BASE, nextOf[popular], nextOf[fresh], { ...cfg.pairs, connections: cfg.connections });
  pairs[popular] = t;
  process.stderr.write(
    `  ${meta.notes} ${popular} vs fresh, interleaved: ${t.popular.p50?.toFixed(2)} vs ${t.fresh.p50?.toFixed(2)} ms (${t.ratio.toFixed(2)}×), ${t.popular.n}/${t.fresh.n} answers, ${t.errors} errors\n`,
  );
}

// The write ceiling: mixed writes (like, follow, note, reply) by many clients, for the single writer.
const ceiling = await writeCeiling(BASE, pool, meta, cfg.ceiling);
process.stderr.write(
  `  ${meta.notes} write ceiling: ${ceiling.writesPerSecond.toFixed(0)} writes/s, p99 ${ceiling.p99?.toFixed(0)} ms, errors ${ceiling.errors}, statuses ${JSON.stringify(ceiling.statuses)}\n`,
);
writeFileSync(cfg.out, JSON.stringify({ rows: out, pairs, ceiling }));
peer.close();
