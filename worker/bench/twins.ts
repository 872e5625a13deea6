// The bench's bare twins (`npm run bench`, scripts/bench/measure.mjs). A twin is the floor for one
// bench row's D1 work on this machine: the very statements that row's request sent, captured from it
// in local mode, run again by a handler with no app around them (no Hono, no middleware, no session,
// no rendering). The bench measures the row and its twin side by side under the same load, and a
// row's budget is its time as a multiple of its twin's.
//
// Wired only by the bench's entry (entry.ts), never into the deployed worker; even there only under
// APP_ENV=local with BENCH_TWINS=1 (a var only the bench passes), elsewhere both routes are the app's
// ordinary 404. The twin replays only statements the app itself sent; no SQL ever comes in from a
// request.

import type { Env } from "../env";
import { kindOfId, madeAt, newId } from "../lib/ids";
import { type Call, callName, recordedBindings, replayCall } from "./platform";

interface Statement {
  sql: string;
  params: unknown[];
}
/** One round trip to D1: a statement's all/run/raw/first, or a batch. */
interface D1Trip {
  batch: boolean;
  method: "all" | "run" | "raw" | "first";
  statements: Statement[];
}
/**
 * A trip to D1 or a platform call (platform.ts). `after`: still in flight when the request was
 * answered (work it left to waitUntil, as the live hub's publish): the twin does it after its answer too.
 */
type Trip = (D1Trip | { call: Call }) & { after?: boolean };
/**
 * A request's trips: those it had in flight at the same time form a wave, waves ran one after
 * another. `primary`: the request started its D1 session at the primary (a write, db/replicas.ts).
 * `from`, `to`: when it ran (ms), which tells the ids it made (lib/ids.ts) from those it named.
 */
interface Capture {
  primary: boolean;
  waves: Trip[][];
  from: number;
  to: number;
}

const CAPTURE_HEADER = "x-bench-capture";
const ID = /^[\w-]{1,40}$/;
/** Captures by the id the bench gave them. One isolate serves the bench locally; a few hundred at most. */
const captured = new Map<string, Capture>();

type BenchEnv = { APP_ENV: string; BENCH_TWINS?: string; DB: D1Database };
/** The env as the recorder and the twin see it: bindings by name. */
const byName = (env: BenchEnv) => env as unknown as { [binding: string]: unknown };
const enabled = (env: BenchEnv) => env.APP_ENV === "local" && env.BENCH_TWINS === "1";

/** Bind values as D1 takes them again after a trip through JSON (a blob as its bytes). */
const storable = (v: unknown) =>
  v instanceof ArrayBuffer
    ? [...new Uint8Array(v)]
    : ArrayBuffer.isView(v)
      ? [...new Uint8Array(v.buffer, v.byteOffset, v.byteLength)]
      : v;

/** A statement that notes each trip it makes into `record` before making it. */
class RecordedStatement {
  constructor(
    readonly real: D1PreparedStatement,
    private readonly sql: string,
    private readonly params: unknown[],
    private readonly record: (trip: Trip, run: () => Promise<unknown>) => Promise<unknown>,
  ) {}
  bind(...values: unknown[]) {
    return new RecordedStatement(this.real.bind(...values), this.sql, values.map(storable), this.record);
  }
  get statement(): Statement {
    return { sql: this.sql, params: this.params };
  }
  private trip(method: D1Trip["method"], run: () => Promise<unknown>) {
    return this.record({ batch: false, method, statements: [this.statement] }, run);
  }
  all() {
    return this.trip("all", () => this.real.all());
  }
  run() {
    return this.trip("run", () => this.real.run());
  }
  raw(options?: { columnNames?: boolean }) {
    return this.trip("raw", () => (options?.columnNames ? this.real.raw({ columnNames: true }) : this.real.raw()));
  }
  first(column?: string) {
    return this.trip("first", () => (column === undefined ? this.real.first() : this.real.first(column)));
  }
}

/**
 * `d1` and the platform's bindings recording every trip of the request into `waves`, when the bench
 * asked for a capture of this request (header x-bench-capture: <id>); else `d1` as it is and no
 * bindings. Call `keep` once the request is answered.
 */
export function benchRecorder(request: Request, env: BenchEnv, d1: D1Database) {
  const id = request.headers.get(CAPTURE_HEADER);
  if (!enabled(env) || !id || !ID.test(id)) return { d1, keep() {} };
  const waves: Trip[][] = [];
  const inFlight = new Set<Trip>();
  const from = Date.now();
  const record = async (trip: Trip, run: () => Promise<unknown>) => {
    if (inFlight.size === 0 || !waves.length) waves.push([]);
    waves[waves.length - 1].push(trip);
    inFlight.add(trip);
    try {
      return await run();
    } finally {
      inFlight.delete(trip);
    }
  };
  const recording = {
    prepare: (sql: string) => new RecordedStatement(d1.prepare(sql), sql, [], record),
    batch: (stmts: RecordedStatement[]) =>
      record({ batch: true, method: "all", statements: stmts.map((s) => s.statement) }, () =>
        d1.batch(stmts.map((s) => s.real)),
      ),
    exec: (sql: string) =>
      record({ batch: false, method: "run", statements: [{ sql, params: [] }] }, () => d1.exec(sql)),
    withSession: () => recording,
    getBookmark: () => (d1 as unknown as D1DatabaseSession).getBookmark?.() ?? null,
  };
  const bindings = recordedBindings(byName(env), (call, run) => record({ call }, run)) as Partial<Env>;
  const primary = !["GET", "HEAD", "OPTIONS"].includes(request.method);
  return {
    d1: recording as unknown as D1Database,
    bindings,
    keep: () => {
      for (const trip of inFlight) trip.after = true;
      captured.set(id, { primary, waves, from, to: Date.now() });
    },
  };
}

/**
 * A captured statement's values with each id the captured request made (a new row's, lib/ids.ts)
 * replaced by a new one, the same one wherever it recurs: a replayed insert adds a row as the
 * request did, instead of meeting the primary key of the row the capture added.
 */
function freshIds(capture: Capture) {
  const made = new Map<number, number>();
  return (v: unknown) => {
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 2 ** 47) return v;
    const at = madeAt(v);
    if (at < capture.from - 1 || at > capture.to + 1) return v;
    let fresh = made.get(v);
    if (fresh === undefined) {
      // Of the same kind (a note's or a reply's: the id's lowest bit says which).
      fresh = newId(kindOfId(v));
      made.set(v, fresh);
    }
    return fresh;
  };
}

/** Sends one captured D1 trip as the app sent it, its values through `value`. */
function replay(db: D1DatabaseSession, trip: D1Trip, value: (v: unknown) => unknown): Promise<unknown> {
  const stmts = trip.statements.map((s) => db.prepare(s.sql).bind(...s.params.map(value)));
  if (trip.batch) return db.batch(stmts).then((rs) => rs.map((r) => r.results));
  const [s] = stmts;
  return trip.method === "raw"
    ? s.raw()
    : trip.method === "first"
      ? s.first()
      : s[trip.method]().then((r) => r.results);
}

/** The platform calls of a capture, in order (the bench prints them beside the row). */
export const callsOf = (capture: Capture) =>
  capture.waves.flatMap((w) => w.flatMap((t) => ("call" in t ? [callName(t.call)] : [])));

/**
 * The twin routes, ahead of the whole app: GET /__bench/twin/<id> makes capture <id>'s trips (wave
 * by wave, each wave's trips together; D1 and the platform calls alike, those the request left for
 * after its answer after the twin's) and answers their D1 rows as JSON; GET /__bench/capture/<id>
 * shows the capture. Undefined for every other request, and for all of them outside the bench.
 */
export function benchTwin(
  request: Request,
  env: BenchEnv,
  ctx: { waitUntil(p: Promise<unknown>): void },
): Promise<Response> | undefined {
  if (!enabled(env)) return undefined;
  const url = new URL(request.url);
  const m = /^\/__bench\/(twin|capture)\/([^/]+)$/.exec(url.pathname);
  if (!m) return undefined;
  const capture = captured.get(m[2]);
  if (!capture)
    return Promise.resolve(Response.json({ code: "not_found", message: "No such capture" }, { status: 404 }));
  if (m[1] === "capture") return Promise.resolve(Response.json({ ...capture, calls: callsOf(capture) }));
  const db = env.DB.withSession(capture.primary ? "first-primary" : "first-unconstrained");
  const value = freshIds(capture);
  // ?without=LIVE,SESSIONS: the twin without those bindings' calls, to see what each costs.
  const without = new Set(url.searchParams.get("without")?.split(",") ?? []);
  const make = (t: Trip) =>
    "call" in t
      ? without.has(t.call.binding)
        ? Promise.resolve(null)
        : replayCall(byName(env), t.call)
      : replay(db, t, value);
  return (async () => {
    const out: unknown[] = [];
    const later: Trip[] = [];
    for (const wave of capture.waves) {
      later.push(...wave.filter((t) => t.after));
      out.push(await Promise.all(wave.filter((t) => !t.after).map(make)));
    }
    for (const t of later) ctx.waitUntil(make(t));
    return Response.json(out);
  })();
}
