// npm run bench: build, then for each size (10k and 100k notes; --sizes 10000,100000,1000000)
// start the worker with wrangler's dev server on 127.0.0.1 (scripts/local-worker.mjs) on a generated
// network, measure every row with autocannon, and print one table of p50 ratios to the trivial floor
// (/v1/health) of the same run, with each row's D1 round trips; then the first-load JS of `/` and
// Lighthouse (--no-lighthouse skips it). Loopback only; every load is bounded in time. Writes
// bench/results.json; exits 1 when a budget of issue 9 is over.
import "../dev-vars.mjs";
import { execFileSync, spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import autocannon from "autocannon";
import { freshLocalD1, startLocalWorker } from "../local-worker.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SIZES = arg("sizes", "10000,100000").split(",").map(Number);
const DURATION = Number(arg("duration", 5));
const CONNECTIONS = Number(arg("connections", 8));
const PORT = Number(arg("port", 8899));
const BASE = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

if (!process.argv.includes("--no-build")) execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit", env });

async function login(username) {
  const res = await fetch(`${BASE}/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password: "bench1234" }),
  });
  const cookie = (res.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
  return { token: (await res.json()).token, cookie };
}

/** Follows cursors like an infinite scroll does, to reach a deep page's keyset. */
async function cursorFor(path, page) {
  let cursor = null;
  for (let p = 1; p < page; p++) {
    const res = await fetch(`${BASE}${path}?page=${p}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (!res.ok) return null;
    const body = await res.json();
    cursor = body.cursor;
    if (!cursor) return null;
  }
  return cursor;
}

/** First-load JavaScript of `/`: every module the page's HTML loads or preloads, gzipped (zlib default). */
async function firstLoadJs() {
  const html = await (await fetch(`${BASE}/`)).text();
  const urls = [...new Set(html.match(/\/assets\/[\w.-]+\.js/g) ?? [])];
  let gzip = 0;
  for (const u of urls) gzip += gzipSync(Buffer.from(await (await fetch(`${BASE}${u}`)).arrayBuffer())).length;
  return { modules: urls.length, gzip };
}

const tripsOf = (res) => Number(/d1;desc="(\d+) round trips"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? NaN);

/**
 * A row's first request, before any load: it renders (a visitor page then fills the edge cache),
 * so its D1 round trips are the row's.
 */
async function probe(path, headers = {}) {
  const res = await fetch(`${BASE}${path}`, { headers });
  return { ok: res.ok, status: res.status, trips: tripsOf(res) };
}

async function measure(path, headers = {}, first = null) {
  const { ok, status, trips } = first ?? (await probe(path, headers));
  if (!ok) return { path, status, skipped: true };
  // A second of the same load first, unrecorded, so the row measures warm code (JIT, caches).
  await load({ url: `${BASE}${path}`, connections: CONNECTIONS, duration: 1, headers });
  const { r, times } = await load({ url: `${BASE}${path}`, connections: CONNECTIONS, duration: DURATION, headers });
  return {
    path,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    rps: Math.round(r.requests.average),
    errors: r.errors + r.non2xx + r.timeouts,
    trips,
  };
}

/** autocannon's run, keeping every response time (its own percentiles are whole milliseconds). */
function load(opts) {
  const times = [];
  return new Promise((resolve, reject) => {
    const run = autocannon(opts, (err, r) => (err ? reject(err) : resolve({ r, times })));
    run.on("response", (_client, _status, _bytes, ms) => times.push(ms));
  });
}

function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100 : null;
}

const FLOOR = "floor GET /v1/health";
const results = {};
let client = null;
for (const size of SIZES) {
  const persist = `.wrangler/bench-${size}`;
  freshLocalD1(persist, env);
  execFileSync("node", ["scripts/bench/generate.mjs", "--notes", String(size), "--persist-to", persist], {
    stdio: "inherit",
    env,
  });
  const meta = JSON.parse(readFileSync(`${persist}-meta.json`, "utf8"));
  const { stop } = await startLocalWorker({ port: PORT, persist, env, tries: 120 });
  try {
    const me = await login("bench1");
    const auth = { authorization: `Bearer ${me.token}` };
    const page200 = await cursorFor("/v1/discover", 200);
    const rows = {
      [FLOOR]: ["/v1/health"],
      "discover page 1": ["/v1/discover?page=1"],
      "discover page 200": [
        page200 ? `/v1/discover?page=200&cursor=${encodeURIComponent(page200)}` : "/v1/discover?page=200",
      ],
      "feed (follows 500)": ["/v1/feeds?page=1", auth],
      "user notes, x-label": ["/v1/notes?uid=2&xlabel=idea&page=1"],
      "note detail": [`/v1/notes/${meta.focusAuthor}/${meta.focusNote}`],
      "reply detail, 20 deep": [
        `/v1/replies/${meta.chainFocus}/username/bench${((meta.chainFocus - 1) % meta.users) + 1}`,
      ],
      "tag page": ["/v1/tags/edge?page=1"],
      "folders list": ["/v1/folders?uid=2&sort=time&page=1"],
      notifications: ["/v1/notifications?page=1", auth],
      "SSR /": ["/", { cookie: "" }],
      "SSR note page": [`/${meta.focusAuthor}/note/${meta.focusNote}`],
      "SSR profile": ["/bench2"],
    };
    // Every row once, briefly, before any is measured: the worker's code paths are all warm, so the
    // first rows of a run are not charged for it. Each row's first request is probed before that.
    const firsts = {};
    for (const [name, [path, headers]] of Object.entries(rows)) {
      firsts[name] = await probe(path, headers ?? {});
      await load({ url: `${BASE}${path}`, connections: CONNECTIONS, duration: 0.5, headers: headers ?? {} });
    }
    client ??= await firstLoadJs();
    results[size] = {};
    for (const [name, [path, headers]] of Object.entries(rows)) {
      const r = await measure(path, headers ?? {}, firsts[name]);
      results[size][name] = r;
      process.stderr.write(
        `${size} ${name}: ${r.skipped ? `skipped (${r.status})` : `p50 ${r.p50} ms, rps ${r.rps}`}\n`,
      );
    }
    // The floor again after the rows: the machine drifts over a run, so the floor is the mean of both.
    const first = results[size][FLOOR];
    const again = await measure("/v1/health");
    results[size][FLOOR] = {
      ...first,
      p50: Math.round(((first.p50 + again.p50) / 2) * 100) / 100,
      p95: Math.max(first.p95, again.p95),
      rps: Math.round((first.rps + again.rps) / 2),
      errors: first.errors + again.errors,
      floors: [first.p50, again.p50],
    };
    process.stderr.write(`${size} floor again: p50 ${again.p50} ms\n`);
  } finally {
    await stop();
  }
}

// Ratios to the floor of the same run at each size, the budgets of issue 9, and growth between the
// first two sizes (ratio at the large size / ratio at the small one).
const [small, large] = SIZES;
const floorOf = (size) => results[size][FLOOR].p50 || 1;
const budget = (name) => (name.startsWith("SSR") ? 5 : name.startsWith("floor") ? Infinity : 3);
const table = [];
let ok = true;
for (const name of Object.keys(results[small])) {
  const a = results[small][name];
  const b = large ? results[large]?.[name] : undefined;
  const ratio = (r, size) => (r && !r.skipped ? r.p50 / floorOf(size) : null);
  const ra = ratio(a, small);
  const rb = ratio(b, large);
  const growth = ra !== null && rb !== null ? rb / ra : null;
  const pass =
    ra === null
      ? "n/a"
      : Math.max(ra, rb ?? 0) <= budget(name) && (growth === null || growth <= 1.3) && !a.errors && !b?.errors
        ? "ok"
        : "OVER";
  if (pass === "OVER") ok = false;
  table.push({
    row: name,
    "D1 trips": a.trips ?? "-",
    [`p50 ms ${small}`]: a.p50 ?? "-",
    [`× floor ${small}`]: ra?.toFixed(2) ?? "-",
    ...(large ? { [`p50 ms ${large}`]: b?.p50 ?? "-", [`× floor ${large}`]: rb?.toFixed(2) ?? "-" } : {}),
    "p95 ms": (b ?? a).p95 ?? "-",
    "req/s": (b ?? a).rps ?? "-",
    growth: growth?.toFixed(2) ?? "-",
    errors: (a.errors ?? 0) + (b?.errors ?? 0),
    budget: pass,
  });
}
console.table(table);
const deepRatios = SIZES.map((size) => {
  const deep = results[size]["discover page 200"];
  const first = results[size]["discover page 1"];
  return deep.skipped || first.skipped ? null : deep.p50 / first.p50;
});
if (deepRatios.some((r) => r === null || r > 1.2)) ok = false;
console.log(`deep page / page 1: ${deepRatios.map((r) => r?.toFixed(2) ?? "n/a").join(", ")} (budget 1.2)`);
const JS_BUDGET = 100_000;
if (!client || client.gzip > JS_BUDGET) ok = false;
console.log(`first-load JS of /: ${client?.gzip} B gzip in ${client?.modules} modules (budget ${JS_BUDGET} B)`);

// Lighthouse last, on its own worker with the demo data (scripts/lighthouse.mjs).
let lighthouse = null;
if (!process.argv.includes("--no-lighthouse")) {
  rmSync("bench/lighthouse.json", { force: true });
  const run = spawnSync("node", ["scripts/lighthouse.mjs", "--no-build"], { stdio: "inherit", env });
  if (run.status !== 0) ok = false;
  try {
    lighthouse = JSON.parse(readFileSync("bench/lighthouse.json", "utf8")).results;
  } catch {
    ok = false;
  }
}
mkdirSync("bench", { recursive: true });
writeFileSync(
  "bench/results.json",
  JSON.stringify(
    {
      at: new Date().toISOString(),
      sizes: SIZES,
      duration: DURATION,
      connections: CONNECTIONS,
      results,
      table,
      deepRatios,
      client,
      lighthouse,
    },
    null,
    2,
  ),
);
console.log(ok ? "all budgets hold" : "some budgets are over (see OVER)");
process.exit(ok ? 0 : 1);
