// `npm run soak` (issue 8): the built worker under wrangler dev on 127.0.0.1, a fresh local database,
// SOAK_CLIENTS (50) concurrent clients — each a signed-up user — doing mixed reads and writes for
// SOAK_SECONDS (60). Then: zero 5xx, every acknowledged note and reply readable, every counter equal
// to its rows (the recount audit). Prints the figures and appends them to SECURITY.md's Soak section.
// Loopback only. Needs `npm run build` first (or SOAK_BUILD=1). Exits 1 when a check fails.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
import { CHECK_SQL, wrongIn } from "../worker/db/recount.js";
import { d1Local } from "./d1-local.mjs";
import { freshLocalD1, startLocalWorker } from "./local-worker.mjs";

const PORT = Number(process.env.SOAK_PORT ?? 8794);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 50);
const BASE = `http://127.0.0.1:${PORT}`;
const STATE = `.wrangler/soak-${PORT}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
// Each client stays inside RL_WRITE (60 per 10 s per user): a person, not a script.
const WRITES_PER_10S = 50;

if (process.env.SOAK_BUILD === "1") execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit", env });
freshLocalD1(STATE, env);
// Throwaway secrets of this run, so no .dev.vars is needed.
const { stop } = await startLocalWorker({
  port: PORT,
  persist: STATE,
  env,
  vars: {
    TRUST_TEST_CLIENT_HEADER: "1",
    TOKEN_SECRET: randomBytes(32).toString("hex"),
    UPLOAD_SECRET: randomBytes(32).toString("hex"),
    FEDERATION_SECRET: randomBytes(32).toString("hex"),
  },
});
process.on("exit", stop);

const stats = { requests: 0, byStatus: {}, fiveXX: [], latencies: [], reads: 0, writes: 0 };
const acked = { notes: [], replies: [] };

/** One client: its own user, its own rate-limit identity (x-test-client), sequential requests. */
class Client {
  constructor(n) {
    this.n = n;
    this.id = `soak-${process.pid}-${n}`;
    this.token = null;
    this.writes = [];
  }
  async call(method, path, body) {
    const headers = { "x-test-client": this.id };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const t0 = performance.now();
    let status = 0;
    let json = null;
    try {
      const res = await fetch(`${BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = res.status;
      const text = await res.text();
      try {
        json = text ? JSON.parse(text) : null;
      } catch {}
    } catch (e) {
      status = 599; // connection failure counts as a server failure
      json = { error: String(e) };
    }
    stats.latencies.push(performance.now() - t0);
    stats.requests++;
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
    if (status >= 500) stats.fiveXX.push(`${method} ${path} → ${status} ${JSON.stringify(json)?.slice(0, 200)}`);
    return { status, body: json };
  }
  async signup() {
    const username = `soak${process.pid % 10000}x${this.n}`;
    const res = await this.call("POST", "/v1/signup", {
      email: `${username}@example.com`,
      name: "Soak User",
      username,
      password: "soak12345",
    });
    if (res.status !== 201) throw new Error(`signup ${res.status} ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
    this.uid = res.body.user.id;
    this.username = res.body.user.username;
  }
  canWrite() {
    const now = Date.now();
    this.writes = this.writes.filter((t) => now - t < 10_000);
    return this.writes.length < WRITES_PER_10S;
  }
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];

async function step(c, users) {
  const note = acked.notes.length ? pick(acked.notes) : null;
  const writing = Math.random() < 0.4 && c.canWrite();
  if (!writing || !note) {
    stats.reads++;
    const r = Math.random();
    if (r < 0.35 || !note) return c.call("GET", "/v1/discover?page=1");
    if (r < 0.6) return c.call("GET", `/v1/notes/${note.id}`);
    if (r < 0.75) return c.call("GET", `/v1/replies?pid=${-note.id}&page=1`);
    if (r < 0.9) return c.call("GET", `/v1/users/${pick(users).username}`);
    return c.call("GET", "/v1/feeds?page=1");
  }
  stats.writes++;
  c.writes.push(Date.now());
  const r = Math.random();
  if (r < 0.25) {
    const text = `soak note ${c.n} ${Date.now()} #soak`;
    const res = await c.call("POST", "/v1/notes", { label: "idea", content: `<p>${text}</p>` });
    if (res.status === 201) acked.notes.push({ id: res.body.note.id, text });
    return res;
  }
  if (r < 0.45) return c.call(Math.random() < 0.7 ? "POST" : "DELETE", `/v1/likes/${note.id}?t=note`);
  if (r < 0.6) {
    const text = `soak reply ${c.n} ${Date.now()}`;
    const res = await c.call("POST", "/v1/replies", { parent: -note.id, content: `<p>${text}</p>` });
    if (res.status === 201) acked.replies.push({ id: res.body.id, text });
    return res;
  }
  const other = pick(users);
  if (r < 0.75 && other.uid !== c.uid)
    return c.call(Math.random() < 0.7 ? "POST" : "DELETE", `/v1/follows/${other.uid}`);
  if (r < 0.85) return c.call(Math.random() < 0.7 ? "POST" : "DELETE", `/v1/bookmarks/${note.id}?t=note`);
  return Math.random() < 0.7
    ? c.call("POST", "/v1/renotes", { renote_id: note.id, content: "" })
    : c.call("DELETE", `/v1/renotes/${note.id}`);
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

let failed = false;
try {
  const clients = Array.from({ length: CLIENTS }, (_, i) => new Client(i));
  for (const c of clients) await c.signup();
  // Something to read and interact with from the first second.
  for (const c of clients.slice(0, 5)) {
    const res = await c.call("POST", "/v1/notes", { label: "idea", content: `<p>first ${c.n}</p>` });
    if (res.status === 201) acked.notes.push({ id: res.body.note.id, text: `first ${c.n}` });
  }
  stats.latencies = [];
  stats.byStatus = {};
  const setupRequests = stats.requests;
  const t0 = Date.now();
  const end = t0 + SECONDS * 1000;
  await Promise.all(
    clients.map(async (c) => {
      while (Date.now() < end) await step(c, clients);
    }),
  );
  const elapsed = (Date.now() - t0) / 1000;
  const loadRequests = stats.requests - setupRequests;
  const loadStatuses = { ...stats.byStatus };

  // Every acknowledged write is readable afterwards.
  const reader = clients[0];
  let missingNotes = 0;
  let missingReplies = 0;
  for (const n of acked.notes) {
    const res = await reader.call("GET", `/v1/notes/${n.id}`);
    if (res.status !== 200 || !String(res.body?.txt ?? "").includes(n.text)) missingNotes++;
  }
  const replyIds = new Set();
  for (const n of acked.notes) {
    for (let page = 1, cursor = ""; page < 1000; page++) {
      const res = await reader.call("GET", `/v1/replies?pid=${-n.id}&page=${page}${cursor}`);
      for (const r of res.body?.replies ?? []) replyIds.add(r.id);
      if (res.body?.paginator?.is_end !== false || !res.body?.cursor) break;
      cursor = `&cursor=${encodeURIComponent(res.body.cursor)}`;
    }
  }
  for (const r of acked.replies) if (!replyIds.has(r.id)) missingReplies++;
  await stop();
  const wrong = wrongIn(d1Local(`${CHECK_SQL};`, STATE)[0]).map((w) => `${w.counter.name}: ${w.n}`);

  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const figures = {
    date: new Date().toISOString().slice(0, 16).replace("T", " "),
    seconds: Math.round(elapsed),
    clients: CLIENTS,
    requests: loadRequests,
    rps: Math.round(loadRequests / elapsed),
    reads: stats.reads,
    writes: stats.writes,
    p50: Math.round(pct(sorted, 50)),
    p95: Math.round(pct(sorted, 95)),
    p99: Math.round(pct(sorted, 99)),
    statuses: loadStatuses,
    fiveXX: stats.fiveXX.length,
    notes: acked.notes.length,
    replies: acked.replies.length,
    missingNotes,
    missingReplies,
    wrongCounters: wrong,
  };
  failed = figures.fiveXX > 0 || missingNotes > 0 || missingReplies > 0 || wrong.length > 0;
  console.log(JSON.stringify(figures, null, 2));
  for (const line of stats.fiveXX.slice(0, 10)) console.log(line);
  const row = `| ${figures.date} | ${figures.seconds} s | ${CLIENTS} | ${figures.requests} (${figures.rps}/s) | ${figures.reads} / ${figures.writes} | ${figures.p50} / ${figures.p95} / ${figures.p99} ms | ${figures.fiveXX} | ${figures.notes} notes, ${figures.replies} replies, ${missingNotes + missingReplies} missing | ${wrong.length ? wrong.join(", ") : "0"} | ${JSON.stringify(figures.statuses)} |`;
  appendFileSync("SECURITY.md", `${row}\n`);
  console.log(failed ? "soak: FAILED" : "soak: passed (figures appended to SECURITY.md)");
} catch (e) {
  console.error(e);
  failed = true;
} finally {
  await stop();
}
process.exit(failed ? 1 : 0);
