// npm run bench: build, then for each size (100k and 1M notes; --sizes to change) generate a
// network in bulk SQL (scripts/bench/generate.mjs), start the built worker with wrangler's dev
// server on 127.0.0.1 (scripts/local-worker.mjs) from the bench's own entry (worker/bench/entry.ts,
// BENCH_TWINS=1; the deployed entry has none of it), and measure every row in a child
// process at lower priority (scripts/bench/measure.mjs): each row gets a bare twin (its own request's
// D1 trips replayed with no app around them, worker/bench/twins.ts); interleaved rounds, each row
// and its twin alone and under load, CPU per request, D1 busy time and rows from Server-Timing.
// Prints one table of median ratios to the twin of the same round with their spread over rounds,
// the budgets (× twin: API reads and writes 1.5, a signed-in page's data 3, a whole page 6; one D1
// trip; rows read; growth), the popular/fresh pairs (pairs.mjs: interleaved, ≤ 1.2×, --pair-blocks
// and --pair-seconds size them), the write ceiling, the live streams' rows (live-rows.mjs; --no-live
// skips them, --live "sockets,online,posts" scales them), the first-load JS of `/` and Lighthouse
// (--no-lighthouse skips it). Loopback only; every load is bounded in time. Writes
// bench/results.json; exits 1 when a budget is over.
import "../dev-vars.mjs";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { freshLocalD1, startLocalWorker } from "../local-worker.mjs";
import { LIVE_BUDGET, liveRows } from "./live-rows.mjs";
import { PAIR_BUDGET, PAIRS } from "./pairs.mjs";
import { median } from "./timing.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const SIZES = arg("sizes", "100000,1000000").split(",").map(Number);
const ROUNDS = Number(arg("rounds", 3));
const DURATION = Number(arg("duration", 1.5));
const SOLO = Number(arg("solo", 0.5));
const CONNECTIONS = Number(arg("connections", 8));
// Each popular/fresh pair: A B B A blocks of samples this long (pairs.mjs).
const PAIR_SAMPLES = { blocks: Number(arg("pair-blocks", 6)), seconds: Number(arg("pair-seconds", 0.75)) };
const CEILING = { clients: Number(arg("ceiling-clients", 50)), seconds: Number(arg("ceiling-seconds", 8)) };
const PORT = Number(arg("port", 8899));
// --only REGEX: measure only the rows whose name matches (case-insensitive), e.g. while working on them.
const ONLY = arg("only", null);
const BASE = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

if (!process.argv.includes("--no-build")) execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit", env });

/**
 * First-load JavaScript of `/`: every module the page's HTML preloads or imports, gzipped (zlib
 * default). Not every `/assets/…js` the HTML names: the inline route manifest also names the whole
 * manifest's file (its "url"), which the browser never loads under lazy route discovery.
 */
async function firstLoadJs() {
  const html = await (await fetch(`${BASE}/`)).text();
  const loads = /<link rel="modulepreload" href="(\/assets\/[\w.-]+\.js)"|\bimport\b[^"]*"(\/assets\/[\w.-]+\.js)"/g;
  const urls = [...new Set([...html.matchAll(loads)].map((m) => m[1] ?? m[2]))];
  let gzip = 0;
  for (const u of urls) gzip += gzipSync(Buffer.from(await (await fetch(`${BASE}${u}`)).arrayBuffer())).length;
  return { modules: urls.length, gzip };
}

const results = {};
const generation = {};
let client = null;
for (const size of SIZES) {
  const persist = `.wrangler/bench-${size}`;
  const t = Date.now();
  freshLocalD1(persist, env);
  execFileSync("node", ["scripts/bench/generate.mjs", "--notes", String(size), "--persist-to", persist], {
    stdio: "inherit",
    env,
  });
  generation[size] = Math.round((Date.now() - t) / 1000);
  const meta = JSON.parse(readFileSync(`${persist}-meta.json`, "utf8"));
  // The bench signs in 120 writers from one address: each gets its own rate-limit identity, as
  // the e2e server does (x-test-client), while every write still spends its user's budget.
  const vars = { TRUST_TEST_CLIENT_HEADER: "1", BENCH_TWINS: "1" };
  const { child: worker, stop } = await startLocalWorker({
    port: PORT,
    persist,
    vars,
    entry: "worker/bench/entry.ts",
    env,
    tries: 240,
  });
  try {
    client ??= await firstLoadJs();
    const out = `${persist}-measured.json`;
    const cfg = {
      base: BASE,
      meta,
      rounds: ROUNDS,
      duration: DURATION,
      solo: SOLO,
      connections: CONNECTIONS,
      pairs: PAIR_SAMPLES,
      ceiling: CEILING,
      out,
      workerPid: worker.pid,
      // The bench's own peer on another "server" (measure.mjs's signed inbox deliveries).
      actorPort: PORT + 1,
      only: ONLY,
    };
    // Spawned, not spawnSync: this process keeps serving its event loop while the child measures.
    const child = spawn("node", ["scripts/bench/measure.mjs", JSON.stringify(cfg)], { stdio: "inherit", env });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`measuring ${size} failed`);
    results[size] = JSON.parse(readFileSync(out, "utf8"));
  } finally {
    await stop();
  }
}

// Verdicts, on medians over rounds of ratios taken within one round: each row against its bare
// twin (the same D1 trips with no app around them, measured right after it under the same load).
const ROWS_BUDGET = 10 * 20 + 60; // a list reads ≤ 10 × page size rows + a constant (tests/api/meter.test.ts)
const f2 = (x) => (x === null || x === undefined ? "-" : x.toFixed(2));
const f0 = (x) => x.toFixed(0);
const last = SIZES[SIZES.length - 1];
const prev = SIZES.length > 1 ? SIZES[SIZES.length - 2] : null;
/** Per size and row: the ratio to its twin (median and spread over rounds), CPU, and the D1 medians. */
function stats(size, name) {
  const r = results[size].rows[name];
  const withTwin = r.rounds.filter((x) => x.twin);
  const loaded = withTwin.map((x) => x.load.p50 / x.twin.load.p50);
  const alone = withTwin.map((x) => x.solo.p50 / x.twin.solo.p50);
  const pick = (k) => median(r.rounds.map((x) => x.solo.d1[k]));
  return {
    kind: r.kind,
    twinTrips: r.twinTrips,
    // The worker's CPU per request alone, the row's and its twin's.
    cpuMs: median(r.rounds.map((x) => x.solo.cpu ?? null)),
    twinCpuMs: median(withTwin.map((x) => x.twin.solo.cpu ?? null)),
    loadedMs: median(r.rounds.map((x) => x.load.p50)),
    twinMs: median(withTwin.map((x) => x.twin.load.p50)),
    ratio: median(loaded),
    spread: loaded.length ? [Math.min(...loaded), Math.max(...loaded)] : [null, null],
    aloneRatio: median(alone),
    busy: pick("busy"),
    read: pick("read"),
    written: pick("written"),
    trips: pick("trips"),
    errors: r.rounds.reduce((n, x) => n + x.load.errors + x.solo.errors + (x.twin ? x.twin.load.errors : 0), 0),
  };
}
// ×-twin budgets: API reads and writes 1.5, a signed-in page's data 3, a whole page 6; the floor and
// the reference row have none.
const budgetOf = (kind) =>
  ({ floor: Infinity, ref: Infinity, fed: Infinity, list: 1.5, api: 1.5, write: 1.5, data: 3, page: 6 })[kind];
const budgeted = (kind) => budgetOf(kind) !== Infinity;
const names = Object.keys(results[SIZES[0]].rows);
const table = [];
const over = [];
for (const name of names) {
  const byRow = Object.fromEntries(SIZES.map((size) => [size, stats(size, name)]));
  const at = byRow[last];
  const growth = prev && byRow[prev].ratio ? at.ratio / byRow[prev].ratio : null;
  const fails = [];
  for (const size of SIZES) {
    const x = byRow[size];
    if (x.ratio > budgetOf(x.kind)) fails.push(`${size}: ${f2(x.ratio)}× twin > ${budgetOf(x.kind)}×`);
    if (budgeted(x.kind) && x.trips > 1) fails.push(`${size}: ${x.trips} D1 trips > 1`);
    // The twin is the row's floor only if it makes the same trips the row does.
    if (x.twinTrips !== null && x.twinTrips !== x.trips)
      fails.push(`${size}: twin captured ${x.twinTrips} trips, the row makes ${x.trips}`);
    if (x.kind === "list" && x.read > ROWS_BUDGET) fails.push(`${size}: ${x.read} rows read > ${ROWS_BUDGET}`);
    if (x.errors) fails.push(`${size}: ${x.errors} errors`);
  }
  if (growth !== null && budgeted(at.kind) && growth > 1.3) fails.push(`growth ${f2(growth)} > 1.3`);
  if (fails.length) over.push(`${name}: ${fails.join("; ")}`);
  table.push({
    row: name,
    ...Object.fromEntries(
      SIZES.flatMap((size) => [
        [`${size / 1000}k p50 ms`, f2(byRow[size].loadedMs)],
        [
          `${size / 1000}k × twin (spread)`,
          `${f2(byRow[size].ratio)} (${f2(byRow[size].spread[0])}–${f2(byRow[size].spread[1])})`,
        ],
      ]),
    ),
    [`twin p50 ms ${last / 1000}k`]: f2(at.twinMs),
    [`alone × twin ${last / 1000}k`]: f2(at.aloneRatio),
    [`CPU ms ${last / 1000}k (twin)`]: `${f2(at.cpuMs)} (${f2(at.twinCpuMs)})`,
    [`growth ${prev ? `${prev / 1000}k→${last / 1000}k` : ""}`]: f2(growth),
    trips: at.trips ?? "-",
    "D1 ms": f2(at.busy),
    "rows read/written": `${at.read ?? "-"}/${at.written ?? "-"}`,
    budget: fails.length ? "OVER" : budgeted(at.kind) ? `ok (≤ ${budgetOf(at.kind)}×)` : "-",
  });
}
console.table(table);
// The platform calls each row's request made (and its twin makes): session read, budgets, queue, live.
console.table(
  names.map((name) => ({
    row: name,
    "platform calls (row and twin)": results[last].rows[name].twinCalls?.join(" ") ?? "-",
  })),
);

// Popular vs fresh: the same write, its two sides interleaved (pairs.mjs), the same rows touched.
const writes = [];
for (const size of SIZES) {
  for (const [popular, fresh] of PAIRS) {
    const pair = results[size].pairs?.[popular];
    if (!pair) continue;
    const sp = stats(size, popular);
    const sf = stats(size, fresh);
    const sameRows = Math.abs(sp.read - sf.read) <= 2 && Math.abs(sp.written - sf.written) <= 2;
    const ok = pair.ratio <= PAIR_BUDGET && sameRows && !pair.errors;
    if (!ok)
      over.push(
        `${size} ${popular} vs fresh: ${f2(pair.ratio)}× (budget ${PAIR_BUDGET}), rows ${sp.read}/${sp.written} vs ${sf.read}/${sf.written}, ${pair.errors} errors`,
      );
    const ms = (s) => `${f2(s.p50)} (${s.middleHalf.map(f0).join("–")})`;
    writes.push({
      size,
      write: popular,
      "popular / fresh p50": f2(pair.ratio),
      "p50 ms popular (middle half)": ms(pair.popular),
      "p50 ms fresh (middle half)": ms(pair.fresh),
      "rows popular": `${sp.read}/${sp.written}`,
      "rows fresh": `${sf.read}/${sf.written}`,
      budget: ok ? "ok" : "OVER",
    });
  }
}
console.table(writes);
const ceilings = SIZES.map((size) => ({ size, ...results[size].ceiling }));
console.table(
  ceilings.map((c) => ({
    size: c.size,
    clients: c.clients,
    "writes/s": Math.round(c.writesPerSecond),
    "p50 ms": Math.round(c.p50),
    "p99 ms": Math.round(c.p99),
    errors: c.errors,
  })),
);
for (const c of ceilings) if (c.errors) over.push(`${c.size} write ceiling: ${c.errors} errors`);
console.log(`generation: ${SIZES.map((s) => `${s / 1000}k ${generation[s]} s`).join(", ")}`);
// The live streams' rows, on their own runtime (scripts/bench/live-rows.mjs); --no-live skips them.
let live = null;
if (!process.argv.includes("--no-live")) {
  const measured = liveRows(arg("live", "1000,10000,20"), env);
  live = measured.rows;
  over.push(...measured.over);
  if (live) {
    const { update: u, posting: p } = live;
    console.table([
      {
        row: `post → update on a follower's stream, ${u.followers} connected (${u.deliveries} deliveries)`,
        result: `p50 ${f2(u.p50)} ms, p99 ${f2(u.p99)} ms`,
      },
      {
        row: `posting request, ${p.online} followers: 0 vs ${p.online} connected`,
        result: `${f2(p.zeroMs)} ms vs ${f2(p.manyMs)} ms (×${f2(p.ratio)}, budget ${LIVE_BUDGET}×; middle half ${p.zeroSpread.map(f0).join("–")} vs ${p.manySpread.map(f0).join("–")} ms), D1 trips ${p.zeroTrips} vs ${p.manyTrips}, D1 ms ${f2(p.zeroD1Ms)} vs ${f2(p.manyD1Ms)}`,
      },
      {
        row: "  the same, back to back (each post meets the last one's fan-out)",
        result: `${f2(p.zeroBackMs)} ms vs ${f2(p.manyBackMs)} ms (×${f2(p.backRatio)})`,
      },
    ]);
  }
}
const JS_BUDGET = 100_000;
if (!client || client.gzip > JS_BUDGET) over.push("first-load JS");
console.log(`first-load JS of /: ${client?.gzip} B gzip in ${client?.modules} modules (budget ${JS_BUDGET} B)`);
let ok = true;

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
      rounds: ROUNDS,
      duration: DURATION,
      connections: CONNECTIONS,
      generation,
      results,
      table,
      writes,
      ceilings,
      over,
      client,
      live,
      lighthouse,
    },
    null,
    2,
  ),
);
if (over.length) ok = false;
for (const o of over) console.log(`OVER ${o}`);
console.log(ok ? "all budgets hold" : "some budgets are over (see OVER)");
process.exit(ok ? 0 : 1);
