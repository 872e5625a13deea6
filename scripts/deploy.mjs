// npm run deploy: NoteX to Cloudflare in one command (docs/operations.md). First everything that
// can be checked offline, reported together on one line: CLOUDFLARE_API_TOKEN is set, wrangler.toml's
// production ids and vars are real (no REPLACE_WITH_…, APP_ORIGIN an https origin, MAIL_FROM an
// address), and secret values given in this environment pass the worker's own rules
// (worker/lib/secrets.js). Then: the sessions' KV namespace exists (`wrangler kv namespace list`),
// those secrets uploaded, every needed secret exists (`wrangler secret list`), D1 migrations
// applied remotely, deploy, GET /v1/health/ready.
//
// npm run deploy -- --dry-run: no account needed. Builds the app, bundles the production worker
// offline (wrangler deploy --dry-run --outdir) and prints its gzip size; fails over 1.5 MiB, and
// fails when the bundle holds any of the bench's code (BENCH_MARKERS: worker/bench/ is wired only by
// the bench's own entry).
// --skip-build reuses build/ (npm test has just built it). Every failure is one line, exit 1.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { neededSecrets, PLACEHOLDER, secretProblem, varProblems } from "../worker/lib/secrets.js";

// 1.5 MiB: Fedify (ActivityPub, with jsonld and its vocabulary) adds ~690 KiB gzip to the ~570 KiB
// app (measured 1,259 KiB in total). It sits in lazily evaluated modules reached only by ActivityPub
// requests and the queue consumer, so a page isolate parses but never runs it: wrangler's startup
// profile showed no increase over the app without it. Cloudflare's own limit is 10 MiB gzip (paid).
export const BUNDLE_LIMIT_BYTES = 1536 * 1024;
/**
 * Strings only the bench's code says (worker/bench/twins.ts: its capture header, its routes, its
 * switch): none may be in the deployed bundle, whatever the minifier does to names.
 */
export const BENCH_MARKERS = ["x-bench-capture", "__bench", "BENCH_TWINS"];
const ENV = "production";
const args = new Set(process.argv.slice(2));
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

class Stop extends Error {}
const stop = (line) => {
  throw new Stop(line);
};

/**
 * wrangler with output shown; a failed step stops the deploy with one line. `allowFailure` accepts
 * a failure whose output it recognises (the answer is then null).
 */
function wrangler(step, argv, { capture = false, allowFailure } = {}) {
  const r = spawnSync("npx", ["wrangler", ...argv], {
    env,
    encoding: "utf8",
    stdio: ["inherit", capture ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
  });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
    if (allowFailure?.(output)) return null;
    if (capture) process.stderr.write(output);
    stop(`${step} failed (wrangler exited with ${r.status ?? r.signal}; its output is above)`);
  }
  return r.stdout ?? "";
}

function build() {
  if (args.has("--skip-build")) return;
  const r = spawnSync("npm", ["run", "build", "--silent"], { env, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) stop("npm run build failed");
}

/** The production bundle, built offline; answers its gzip size in bytes (and records it). */
function dryRun() {
  build();
  const out = mkdtempSync(join(tmpdir(), "notex-bundle-"));
  try {
    wrangler("wrangler deploy --dry-run", ["deploy", "--dry-run", "--env", ENV, "--outdir", out], { capture: true });
    const files = readdirSync(out).filter((f) => /\.(m?js|wasm)$/.test(f));
    if (!files.length) stop("wrangler deploy --dry-run wrote no bundle");
    const gzip = files.reduce((n, f) => n + gzipSync(readFileSync(join(out, f))).byteLength, 0);
    const raw = files.reduce((n, f) => n + readFileSync(join(out, f)).byteLength, 0);
    const fits = gzip <= BUNDLE_LIMIT_BYTES;
    const text = files.map((f) => readFileSync(join(out, f), "latin1")).join("\n");
    const benchCode = BENCH_MARKERS.filter((m) => text.includes(m));
    const ok = fits && !benchCode.length;
    const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
    console.log(
      `production bundle: ${kib(gzip)} gzip (${kib(raw)} raw), limit ${kib(BUNDLE_LIMIT_BYTES)}; bench code: ${benchCode.length ? benchCode.join(", ") : "none"}`,
    );
    // npm test counts these as two checks (scripts/summary.mjs).
    try {
      writeFileSync(
        "reports/bundle.json",
        JSON.stringify({ gzip, raw, limit: BUNDLE_LIMIT_BYTES, fits, benchCode, ok }),
      );
    } catch {}
    if (!fits) stop(`the production bundle is ${kib(gzip)} gzip, over the ${kib(BUNDLE_LIMIT_BYTES)} limit`);
    if (benchCode.length) stop(`the production bundle holds the bench's code (${benchCode.join(", ")})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function deploy() {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: "wrangler.toml", env: ENV }, { hideWarnings: true });
  const problems = [];
  if (!process.env.CLOUDFLARE_API_TOKEN)
    problems.push("CLOUDFLARE_API_TOKEN is not set (create one: docs/operations.md)");
  const ids = [
    ...config.d1_databases.map((d) => [`d1_databases ${d.binding}.database_id`, d.database_id]),
    ...config.kv_namespaces.map((k) => [`kv_namespaces ${k.binding}.id`, k.id]),
  ];
  if (!config.kv_namespaces.some((k) => k.binding === "SESSIONS"))
    problems.push(`wrangler.toml [env.${ENV}] has no kv_namespaces binding SESSIONS (sign-in sessions)`);
  const placeholders = ids.filter(([, id]) => !id || PLACEHOLDER.test(String(id))).map(([what]) => what);
  if (placeholders.length)
    problems.push(`wrangler.toml [env.${ENV}] still has placeholder ids: ${placeholders.join(", ")}`);
  problems.push(...varProblems(config.vars).map((p) => `wrangler.toml [env.${ENV}.vars] ${p}`));
  // Secrets given here are checked with the worker's own rules before anything is uploaded.
  const needed = neededSecrets(config.vars);
  const given = needed.filter((s) => process.env[s.name] !== undefined);
  problems.push(...given.map((s) => secretProblem(s, process.env[s.name])).filter(Boolean));
  if (problems.length) stop(`not deploying: ${problems.join("; ")}`);

  checkSessionsNamespace(config);
  build();
  // What production already has. A first deploy has no worker yet: then nothing is set.
  const listing = wrangler("wrangler secret list", ["secret", "list", "--env", ENV, "--format", "json"], {
    capture: true,
    allowFailure: (out) => /10007|not found|does not exist/i.test(out),
  });
  const have = new Set(listing === null ? [] : JSON.parse(listing || "[]").map((s) => s.name));
  const missing = needed.filter((s) => !have.has(s.name) && !given.includes(s)).map((s) => s.name);
  if (missing.length) {
    stop(
      `secrets not set in production: ${missing.join(", ")} (give them to npm run deploy as environment variables, or wrangler secret put NAME --env ${ENV})`,
    );
  }

  wrangler("D1 migrations", ["d1", "migrations", "apply", "DB", "--remote", "--env", ENV]);
  // The federation queue and its dead-letter queue (wrangler.toml [[env.production.queues.*]]):
  // created the first time, left as they are afterwards.
  const queues = [
    ...new Set([
      ...(config.queues?.producers ?? []).map((q) => q.queue),
      ...(config.queues?.consumers ?? []).flatMap((q) => [q.queue, q.dead_letter_queue].filter(Boolean)),
    ]),
  ];
  for (const name of queues) {
    wrangler(`queue ${name}`, ["queues", "create", name], {
      capture: true,
      allowFailure: (out) => /already (exists|taken)|11009/i.test(out),
    });
  }
  // Secret values given here go up with the new version itself (--secrets-file): a first deploy
  // never serves a moment without them, and nothing is uploaded if the deploy fails.
  const dir = mkdtempSync(join(tmpdir(), "notex-secrets-"));
  let out;
  try {
    const secretsFile = join(dir, "secrets.json");
    const values = Object.fromEntries(given.map((s) => [s.name, process.env[s.name]]));
    writeFileSync(secretsFile, JSON.stringify(values), { mode: 0o600 });
    const withSecrets = given.length ? ["--secrets-file", secretsFile] : [];
    out = wrangler("wrangler deploy", ["deploy", "--env", ENV, ...withSecrets], { capture: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(out);
  // The site answers at APP_ORIGIN (checked above); NOTEX_URL overrides it, e.g. to probe workers.dev.
  await probe((process.env.NOTEX_URL ?? config.vars.APP_ORIGIN).replace(/\/$/, ""));
}

/** The SESSIONS namespace named in wrangler.toml exists in the account (else: how to create it). */
function checkSessionsNamespace(config) {
  const id = config.kv_namespaces.find((k) => k.binding === "SESSIONS")?.id;
  const listing = wrangler("wrangler kv namespace list", ["kv", "namespace", "list"], { capture: true });
  const namespaces = JSON.parse(listing || "[]");
  if (!namespaces.some((n) => n.id === id)) {
    stop(
      `the KV namespace ${id} (binding SESSIONS) does not exist in this account: create it with \`npx wrangler kv namespace create SESSIONS --env ${ENV}\` and put the id it prints in wrangler.toml`,
    );
  }
}

/** GET /v1/health/ready until it answers 200 (a new version takes a few seconds to reach every colo). */
async function probe(url) {
  let last = "";
  for (let i = 0; i < 10; i++) {
    try {
      const res = await fetch(`${url}/v1/health/ready`, { headers: { "cache-control": "no-cache" } });
      last = `${res.status} ${await res.text()}`;
      if (res.ok) {
        console.log(`ready: ${url} (${last})`);
        return;
      }
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
  stop(`deployed, but ${url}/v1/health/ready is not ready: ${last} (roll back: npx wrangler rollback --env ${ENV})`);
}

try {
  if (args.has("--dry-run")) dryRun();
  else await deploy();
} catch (e) {
  console.error(`deploy: ${e instanceof Stop ? e.message : e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
