// One size of `npm run bench` (child of scripts/bench/run.mjs, which started the worker with
// BENCH_TWINS=1): every row gets a bare twin first (worker/lib/bench-twins.ts: the D1 trips of the
// row's own request, captured, then replayed by a handler with no app around them). Then every row
// and its twin are measured in ROUNDS interleaved rounds (the order rotates each round): the row
// alone (concurrency 1, sequential fetches, D1 meter read from every response's Server-Timing), its
// twin alone, the row under load (autocannon, CONNECTIONS), its twin under the same load. This
// process lowers its own priority first, so on a 2-core machine the load generator yields to the
// worker instead of starving it.
// Args: JSON { base, meta, rounds, duration, solo, connections, ceiling: { clients, seconds }, out }.
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import { createServer } from "node:http";
import { setPriority } from "node:os";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";

const cfg = JSON.parse(process.argv[2]);
const { base: BASE, meta } = cfg;
try {
  setPriority(10);
} catch {}

const median = (xs) => {
  const s = xs.filter((x) => x !== null && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null;
};

/**
 * CPU ms so far of the workerd that runs the worker (and, locally, its D1 and KV): a child of the
 * worker process (`workerPid`) serving on a port of its own (entry=127.0.0.1:0), not wrangler's
 * proxy in front of it. Null where /proc cannot tell (not Linux): the column then reads "-".
 * Under load on 2 cores this is the core the rows wait for, so its CPU per request explains a ratio.
 */
function runtimeCpu(workerPid) {
  const stat = (pid) => readFileSync(`/proc/${pid}/stat`, "utf8");
  try {
    const pid = readdirSync("/proc")
      .filter((d) => /^\d+$/.test(d))
      .find((d) => {
        try {
          const fields = stat(d).split(") ")[1].split(" ");
          const cmd = readFileSync(`/proc/${d}/cmdline`, "utf8");
          return Number(fields[1]) === workerPid && cmd.includes("workerd") && cmd.includes("entry=127.0.0.1:0");
        } catch {
          return false;
        }
      });
    if (!pid) return () => null;
    // utime + stime, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
    return () => {
      const f = stat(pid).split(") ")[1].split(" ");
      return (Number(f[11]) + Number(f[12])) * 10;
    };
  } catch {
    return () => null;
  }
}
const cpuNow = runtimeCpu(cfg.workerPid);

/** The d1 entries of the worker's Server-Timing (worker/db/meter.ts). */
function d1Of(header) {
  const h = header ?? "";
  const trips = /d1;desc="(\d+) round trips"/.exec(h);
  const busy = /d1-busy;dur=([\d.]+)/.exec(h);
  const rows = /d1-rows;desc="(\d+) read (\d+) written"/.exec(h);
  return {
    trips: trips ? Number(trips[1]) : null,
    busy: busy ? Number(busy[1]) : null,
    read: rows ? Number(rows[1]) : null,
    written: rows ? Number(rows[2]) : null,
  };
}

async function login(username) {
  const res = await fetch(`${BASE}/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-client": username },
    body: JSON.stringify({ username, password: "bench1234" }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status}`);
  const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  return { token: (await res.json()).token, cookie };
}

/** Follows cursors like an infinite scroll does, to reach a deep page's keyset. */
async function cursorFor(path, page, headers = {}) {
  let cursor = null;
  for (let p = 1; p < page; p++) {
    const res = await fetch(`${BASE}${path}?page=${p}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
      headers,
    });
    if (!res.ok) return null;
    cursor = (await res.json()).cursor;
    if (!cursor) return null;
  }
  return cursor;
}

// Writers: RL_WRITE allows a person 60 writes per 10 s, so every write row spreads its requests
// over a pool of signed-in users (bench users 10.., none of them in the popular crowd).
const POOL = 120;
const pool = [];
for (let i = 0; i < POOL; i += 8)
  pool.push(
    ...(await Promise.all(Array.from({ length: Math.min(8, POOL - i) }, (_, k) => login(`bench${10 + i + k}`)))),
  );

/**
 * A toggling write (like/unlike, follow/unfollow): requests are a POST and a DELETE in turn, by
 * writers who do not like (follow) the target and by writers who do, so every request changes
 * something and every row touches the same rows run after run. A writer's POST and their DELETE are
 * half the pool apart (120 requests), never in flight together under load: sent the other way round
 * they would leave the writer liking, their next POST would change nothing, and a row's rows read
 * and written would drift from run to run (popular against fresh then compared different work).
 * The first half of the pool likes the target before the row starts, so the first DELETE undoes a like.
 */
async function toggle(path) {
  const half = POOL / 2;
  const as = (u) => ({ authorization: `Bearer ${pool[u % POOL].token}` });
  for (let u = 0; u < half; u++) {
    const res = await fetch(`${BASE}${path}`, { method: "POST", headers: as(u) });
    if (!res.ok) throw new Error(`toggle ${path}: ${res.status}`);
  }
  let n = 0;
  return () => {
    const i = n++;
    const k = Math.floor(i / 2);
    return i % 2 ? { method: "DELETE", path, headers: as(k) } : { method: "POST", path, headers: as(k + half) };
  };
}
const get =
  (path, headers = {}) =>
  () => ({ method: "GET", path, headers });
/** A read by each pool user in turn (for a read with a per-person budget). */
function rotating(path) {
  let n = 0;
  return () => ({ method: "GET", path, headers: { authorization: `Bearer ${pool[n++ % pool.length].token}` } });
}

const me = await login("bench1");
const quiet = await login("quiet");

// The Mastodon API's rows (/api/v1): one app, and each person's token for it through the consent
// route and the code exchange, as an app gets one.
const OOB = "urn:ietf:wg:oauth:2.0:oob";
const mastoApp = await (
  await fetch(`${BASE}/api/v1/apps`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Bench App", redirect_uris: OOB, scopes: "read write follow" }),
  })
).json();
async function mastoToken(who) {
  const headers = { "content-type": "application/json", authorization: `Bearer ${who.token}` };
  const params = { client_id: mastoApp.client_id, redirect_uri: OOB, scope: "read write follow" };
  const consent = await fetch(`${BASE}/v1/oauth/authorize`, {
    method: "POST",
    headers,
    body: JSON.stringify({ response_type: "code", ...params }),
  });
  const { code } = await consent.json();
  const res = await fetch(`${BASE}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "authorization_code", code, client_secret: mastoApp.client_secret, ...params }),
  });
  if (!res.ok) throw new Error(`mastodon token: ${res.status}`);
  return { authorization: `Bearer ${(await res.json()).access_token}` };
}
const mastoMe = await mastoToken(me);
const mastoPool = [];
for (let i = 0; i < pool.length; i += 8) mastoPool.push(...(await Promise.all(pool.slice(i, i + 8).map(mastoToken))));
/** A status posted by each pool person in turn (each write spends its person's RL_WRITE budget). */
function posting() {
  let n = 0;
  return () => {
    const i = n++;
    return {
      method: "POST",
      path: "/api/v1/statuses",
      headers: { ...mastoPool[i % mastoPool.length], "content-type": "application/json" },
      body: JSON.stringify({ status: `Posted from the bench app, ${i}` }),
    };
  };
}
const auth = (who) => ({ authorization: `Bearer ${who.token}` });
const page200 = await cursorFor("/v1/discover", 200);

// Someone on another server, served by this process on cfg.actorPort (the worker fetches its key
// once, in local mode over loopback): each inbox request is a new Create, signed draft-cavage as
// Mastodon signs, its rate-limit identity taking turns (RL_FED allows a host 300 a minute).
const actorBase = `http://127.0.0.1:${cfg.actorPort}`;
const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const actorDoc = JSON.stringify({
  "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
  id: `${actorBase}/actor`,
  type: "Person",
  preferredUsername: "benchpeer",
  inbox: `${actorBase}/inbox`,
  publicKey: {
    id: `${actorBase}/actor#main-key`,
    owner: `${actorBase}/actor`,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }),
  },
});
const actorServer = createServer((req, res) => {
  res.writeHead(req.url === "/actor" ? 200 : 202, { "content-type": "application/activity+json" });
  res.end(req.url === "/actor" ? actorDoc : "");
});
await new Promise((resolve) => actorServer.listen(cfg.actorPort, "127.0.0.1", resolve));
let delivered = 0;
function inboxDelivery() {
  const n = delivered++;
  const id = `${actorBase}/notes/${process.pid}-${n}`;
  const body = JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${id}/activity`,
    type: "Create",
    actor: `${actorBase}/actor`,
    to: "https://www.w3.org/ns/activitystreams#Public",
    object: {
      id,
      type: "Note",
      attributedTo: `${actorBase}/actor`,
      content: `<p>Bench delivery ${n}</p>`,
      to: "https://www.w3.org/ns/activitystreams#Public",
    },
  });
  const host = new URL(BASE).host;
  const date = new Date().toUTCString();
  const digest = `SHA-256=${createHash("sha256").update(body).digest("base64")}`;
  const signed = `(request-target): post /ap/inbox\nhost: ${host}\ndate: ${date}\ndigest: ${digest}`;
  const signature = sign("sha256", Buffer.from(signed), privateKey).toString("base64");
  return {
    method: "POST",
    path: "/ap/inbox",
    body,
    headers: {
      host,
      date,
      digest,
      "content-type": "application/activity+json",
      "x-test-client": `fed${n % 1000}`,
      signature: `keyId="${actorBase}/actor#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
    },
  };
}
// The first delivery fetches and caches the key: before any capture or measurement.
{
  const r = inboxDelivery();
  const res = await fetch(`${BASE}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  if (res.status >= 300) throw new Error(`inbox delivery: ${res.status} ${await res.text()}`);
}

// The authors of the posting pair (generate.mjs): each request by the next of them in turn.
const fedAuthors = [];
const plainAuthors = [];
for (let i = 1; i <= meta.fedAuthors; i++) {
  fedAuthors.push(await login(`fedauthor${i}`));
  plainAuthors.push(await login(`plainauthor${i}`));
}
function postingAs(authors) {
  let n = 0;
  return () => {
    const i = n++;
    return {
      method: "POST",
      path: "/v1/notes",
      headers: { authorization: `Bearer ${authors[i % authors.length].token}`, "content-type": "application/json" },
      body: JSON.stringify({ label: "idea", content: `<p>bench post ${i}</p>` }),
    };
  };
}

/**
 * Rows: [name, kind, next-request]. kind: floor | ref | list | api | write | data (a signed-in page's
 * data, Remix single fetch) | page (a whole HTML page: no JS, a visitor's, or the signed-in shell).
 */
const rows = [
  ["floor GET /v1/health", "floor", get("/v1/health")],
  ["discover page 1", "list", get("/v1/discover?page=1")],
  [
    "discover page 200 (cursor)",
    "list",
    get(page200 ? `/v1/discover?page=200&cursor=${encodeURIComponent(page200)}` : "/v1/discover?page=200"),
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
  ["search notes, rare word (signed in)", "list", rotating(`/v1/search?q=${meta.rareWord}&t=notes`)],
  ["like/unlike, popular note (likes = notes)", "write", await toggle(`/v1/likes/${meta.popularNote}?t=note`)],
  ["like/unlike, fresh note", "write", await toggle(`/v1/likes/${meta.freshNote}?t=note`)],
  ["follow/unfollow, popular user (followers = notes)", "write", await toggle(`/v1/follows/${meta.popularUser}`)],
  ["follow/unfollow, fresh user", "write", await toggle(`/v1/follows/${meta.freshUser}`)],
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
  ["mastodon: POST /api/v1/statuses", "write", posting()],
  // Federation: a signed Create delivered to the shared inbox (its time and rows: verifying and
  // queueing, no ×-twin budget), and posting as an author with 10,000 followers on 500 servers
  // against one with none (a pair in run.mjs: the request must cost the same; the fan-out is the
  // queue consumer's).
  ["inbox: signed Create (shared inbox)", "fed", inboxDelivery],
  ["post a note, author with 10k followers on 500 servers", "write", postingAs(fedAuthors)],
  ["post a note, author with none elsewhere", "write", postingAs(plainAuthors)],
];

/**
 * Each row's twin: its next request sent once more with x-bench-capture (a toggling write: its
 * POST and its DELETE, each captured), then the twin's requests alternate over what was captured.
 * A read is sent once before its capture, so the capture is of the row's steady state (a visitor's
 * page from the page cache, as the row's own requests get it). `trips`: the capture's D1 round
 * trips, to hold against the row's own (they must agree).
 */
async function twinOf(i, next) {
  const ids = [];
  const trips = [];
  for (let k = 0; k < 2; k++) {
    const r = next();
    if (r.method === "GET") {
      const warm = await fetch(`${BASE}${r.path}`, { headers: r.headers, redirect: "manual" });
      await warm.arrayBuffer();
    }
    const id = `r${i}-${k}`;
    const res = await fetch(`${BASE}${r.path}`, {
      method: r.method,
      headers: { ...r.headers, "x-bench-capture": id },
      body: r.body,
      redirect: "manual",
    });
    await res.arrayBuffer();
    const capture = await (await fetch(`${BASE}/__bench/capture/${id}`)).json();
    ids.push(id);
    trips.push(capture.waves.reduce((n, w) => n + w.length, 0));
    if (r.method === "GET") break;
  }
  let n = 0;
  return {
    trips: Math.max(...trips),
    next: () => ({ method: "GET", path: `/__bench/twin/${ids[n++ % ids.length]}`, headers: {} }),
  };
}

/** Alone: sequential requests for `seconds` (at least 8), each timed, each with its D1 meter. */
async function alone(next, seconds) {
  const times = [];
  const d1 = [];
  let errors = 0;
  const cpu0 = cpuNow();
  const end = performance.now() + seconds * 1000;
  // An even count: a toggling write's like and unlike (which touch different rows) weigh the same.
  while (performance.now() < end || times.length < 8 || times.length % 2) {
    const r = next();
    const t = performance.now();
    const res = await fetch(`${BASE}${r.path}`, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      redirect: "manual",
    });
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (res.status >= 400) errors++;
    d1.push(d1Of(res.headers.get("server-timing")));
  }
  const pick = (k) => median(d1.map((x) => x[k]));
  // Rows as a mean: a median of alternating like/unlike costs lands on either, or between them.
  const mean = (k) => {
    const xs = d1.map((x) => x[k]).filter((x) => x !== null);
    return xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null;
  };
  return {
    p50: percentile(times, 0.5),
    n: times.length,
    errors,
    // The worker's CPU per request with nothing else running: this row's own cost.
    cpu: cpu0 === null ? null : (cpuNow() - cpu0) / times.length,
    d1: { trips: pick("trips"), busy: pick("busy"), read: mean("read"), written: mean("written") },
  };
}

/**
 * Under load: autocannon for `seconds`, every response time kept (its own percentiles are whole ms),
 * and the worker's CPU per answered request.
 */
function loaded(next, seconds, connections) {
  const times = [];
  const cpu0 = cpuNow();
  return new Promise((resolve, reject) => {
    const run = autocannon(
      {
        url: BASE,
        connections,
        duration: seconds,
        requests: [
          {
            setupRequest: (req) => {
              const r = next();
              return {
                ...req,
                method: r.method,
                path: r.path,
                body: r.body,
                headers: { ...req.headers, ...r.headers },
              };
            },
          },
        ],
      },
      (err, res) =>
        err
          ? reject(err)
          : resolve({
              p50: percentile(times, 0.5),
              p99: percentile(times, 0.99),
              cpu: cpu0 === null || !times.length ? null : (cpuNow() - cpu0) / times.length,
              rps: res.requests.average,
              errors: res.errors + res.non2xx + res.timeouts,
            }),
    );
    run.on("response", (_client, _status, _bytes, ms) => times.push(ms));
  });
}

// Twins first (the floor row is the trivial endpoint itself: no twin), then warm every path (JIT,
// caches) before anything is recorded.
const twins = {};
for (const [i, [name, kind, next]] of rows.entries()) if (kind !== "floor") twins[name] = await twinOf(i, next);
for (const [name, , next] of rows) {
  await loaded(next, 0.5, cfg.connections);
  if (twins[name]) await loaded(twins[name].next, 0.5, cfg.connections);
}

const out = Object.fromEntries(
  rows.map(([name, kind]) => [name, { kind, twinTrips: twins[name]?.trips ?? null, rounds: [] }]),
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

// The write ceiling: mixed writes (like, follow, note, reply) by 50 clients, for the single writer.
let w = 0;
const mixed = () => {
  const i = w++;
  const u = pool[i % pool.length];
  const h = { authorization: `Bearer ${u.token}`, "content-type": "application/json" };
  const note = 1 + ((i * 7919) % meta.notes);
  switch (i % 4) {
    case 0:
      return { method: i % 8 < 4 ? "POST" : "DELETE", path: `/v1/likes/${note}?t=note`, headers: h };
    case 1:
      return { method: i % 8 < 4 ? "POST" : "DELETE", path: `/v1/follows/${1 + (note % meta.users)}`, headers: h };
    case 2:
      return {
        method: "POST",
        path: "/v1/notes",
        headers: h,
        body: JSON.stringify({ label: "idea", content: `<p>load ${i}</p>` }),
      };
    default:
      return {
        method: "POST",
        path: "/v1/replies",
        headers: h,
        body: JSON.stringify({ parent: -note, content: `<p>re ${i}</p>` }),
      };
  }
};
const statuses = {};
const ceiling = await new Promise((resolve, reject) => {
  const times = [];
  const run = autocannon(
    {
      url: BASE,
      connections: cfg.ceiling.clients,
      duration: cfg.ceiling.seconds,
      requests: [
        {
          setupRequest: (req) => {
            const r = mixed();
            return { ...req, method: r.method, path: r.path, body: r.body, headers: { ...req.headers, ...r.headers } };
          },
        },
      ],
    },
    (err, res) =>
      err
        ? reject(err)
        : resolve({
            clients: cfg.ceiling.clients,
            writesPerSecond: res.requests.average,
            p50: percentile(times, 0.5),
            p99: percentile(times, 0.99),
            errors: res.errors + res.non2xx + res.timeouts,
            non2xx: res.non2xx,
            timeouts: res.timeouts,
            // Which answers they were, so an error count in the table says what to look at.
            statuses,
          }),
  );
  run.on("response", (_client, status, _bytes, ms) => {
    times.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
});
process.stderr.write(
  `  ${meta.notes} write ceiling: ${ceiling.writesPerSecond.toFixed(0)} writes/s, p99 ${ceiling.p99?.toFixed(0)} ms, errors ${ceiling.errors}, statuses ${JSON.stringify(statuses)}\n`,
);
writeFileSync(cfg.out, JSON.stringify({ rows: out, ceiling }));
actorServer.close();
