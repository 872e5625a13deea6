// Meters D1 per request. Each trip to the database counts once: a statement run alone, a batch,
// or the reads asked for side by side that go together as one batch (below). D1's result meta adds
// the time the database was busy (`meta.duration`, summed: one D1 runs one query at a time, so
// this is what caps a database's requests per second) and the rows it read and wrote (what D1
// bills, and what grows when a query walks an index it should not). Under APP_ENV=local the
// totals go out in Server-Timing (worker/app.ts), which the tests hold to budgets and the bench
// prints per row; in production only the request log has them.

export interface D1Meter {
  trips: number;
  /** Wall time spent waiting on D1 in this request, ms. */
  ms: number;
  /** Sum of meta.duration: the database's own busy time, ms. */
  busy: number;
  read: number;
  written: number;
}

export const newMeter = (): D1Meter => ({ trips: 0, ms: 0, busy: 0, read: 0, written: 0 });

interface Meta {
  duration?: number;
  rows_read?: number;
  rows_written?: number;
}

const add = (meter: D1Meter, meta: Meta | undefined) => {
  if (!meta) return;
  meter.busy += meta.duration ?? 0;
  meter.read += meta.rows_read ?? 0;
  meter.written += meta.rows_written ?? 0;
};

// raw() and first() drop D1's meta. first() is all() plus a pick; raw() goes one level down, to
// the session's own send (what raw() itself calls, in workerd's D1 shim), and is then rebuilt
// exactly as raw() would. Without that internal the statement simply runs uncounted (rows 0):
// tests/api/meter.test.ts fails then, rather than the app.
type Internal = D1PreparedStatement & {
  statement?: string;
  params?: unknown[];
  dbSession?: { _sendOrThrow?: (...args: unknown[]) => Promise<unknown> };
};
interface RawResult {
  success?: boolean;
  error?: string;
  results?: { columns: string[]; rows: unknown[][] } | Record<string, unknown>[];
  meta?: Meta;
}

/** Rows as raw() gives them, from one answer of the session's send (objects, or columns and rows). */
function rawRows(r: RawResult, options?: { columnNames?: boolean }): unknown[][] {
  const res = r.results;
  if (!res) return [];
  if (Array.isArray(res)) {
    const rows = res.map((row) => Object.values(row));
    return options?.columnNames && res.length ? [Object.keys(res[0]), ...rows] : rows;
  }
  return options?.columnNames ? [res.columns, ...res.rows] : res.rows;
}

/** Rows as all() gives them (objects), from one answer of the session's send. */
function objectRows(r: RawResult): Record<string, unknown>[] {
  const res = r.results;
  if (!res) return [];
  if (Array.isArray(res)) return res;
  return res.rows.map((row) => Object.fromEntries(res.columns.map((col, i) => [col, row[i]])));
}

const NO_SPAN = { setAttribute() {} };

/** A D1Result, as all() gives it, from one answer of the session's send. */
const asResult = (r: RawResult) =>
  ({ success: true, meta: r.meta ?? {}, results: objectRows(r) }) as unknown as D1Result;

/** The session's own send (workerd's D1 shim), or undefined where the statement does not carry it. */
function senderOf(stmt: D1PreparedStatement) {
  const s = stmt as Internal;
  const send = s.dbSession?._sendOrThrow;
  if (typeof send !== "function") return undefined;
  return (sql: string | string[], params: unknown[]) =>
    // The last argument is the tracing span the shim marks a failure on: without one, a failing
    // statement's D1_ERROR would surface as a TypeError instead.
    send.call(s.dbSession, "/query", sql, params, "ROWS_AND_COLUMNS", NO_SPAN) as Promise<RawResult | RawResult[]>;
}

async function rawMetered(stmt: D1PreparedStatement, meter: D1Meter, options?: { columnNames?: boolean }) {
  const s = stmt as Internal;
  const send = senderOf(stmt);
  if (!send) return options?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw();
  const answer = await send(s.statement ?? "", s.params ?? []);
  const r = Array.isArray(answer) ? answer[0] : answer;
  add(meter, r.meta);
  return rawRows(r, options);
}

// How many promise jobs a read waits for company. Two parallel in-process API calls reach D1
// two jobs apart on a note page, but a tag, x-label or reply page's own call reaches it 9 to 12
// jobs after the root loader's /me (its validators take more turns): with 8 those pages took two
// trips, with 12 one (measured). 16 leaves room. Promise jobs, not a timer: a timer under load
// would queue the read behind every other request's work.
const JOBS_TO_WAIT = 16;

// Only a statement that begins with select (or a with-clause that changes nothing) may wait for
// company: anything else might write, and writes keep their order.
const readsOnly = (sql: string | undefined) =>
  sql !== undefined &&
  (/^\s*select\b/i.test(sql) || (/^\s*with\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql)));

/** The same D1 binding, counting what crosses to the database into `meter`. */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  // Proxies carry their real statement (and its SQL) so a batch hands workerd the objects it made.
  const real = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const time = async <T>(p: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    meter.trips++;
    try {
      return await p();
    } finally {
      meter.ms += performance.now() - t;
    }
  };

  // Reads asked for side by side (a page's loaders calling the API in parallel, a service awaiting
  // two queries at once) go to D1 as one batch: one round trip. A batch
  // is all-or-nothing, so if it fails each read is sent again alone and answers for itself.
  type Outcome = { ok: true; r: RawResult } | { ok: false; err: unknown };
  interface Queued {
    sql: string;
    params: unknown[];
    done: (o: Outcome) => void;
  }
  let queue: Queued[] = [];
  let sender: ((sql: string | string[], params: unknown[]) => Promise<RawResult | RawResult[]>) | undefined;
  const one = (sql: string, params: unknown[]): Promise<Outcome> =>
    time(async () => {
      const answer = await sender?.(sql, params);
      return (Array.isArray(answer) ? answer[0] : answer) as RawResult;
    }).then(
      (r): Outcome => {
        add(meter, r.meta);
        return { ok: true, r };
      },
      (err): Outcome => ({ ok: false, err }),
    );
  /** Sends `items` as one trip; on failure, each alone. */
  const sendAsOneBatch = async (all: Queued[]): Promise<Outcome[]> => {
    try {
      const rs = (await time(() =>
        (sender as NonNullable<typeof sender>)(
          all.map((i) => i.sql),
          all.map((i) => i.params),
        ),
      )) as RawResult[];
      const failed = rs.find((r) => r.success === false);
      if (failed) throw new Error(`D1_ERROR: ${failed.error}`);
      for (const r of rs) add(meter, r.meta);
      return rs.map((r): Outcome => ({ ok: true, r }));
    } catch (err) {
      if (all.length === 1) return [{ ok: false, err }];
      return Promise.all(all.map((i) => one(i.sql, i.params)));
    }
  };
  const flush = () => {
    const items = queue;
    queue = [];
    if (!items.length) return Promise.resolve();
    return sendAsOneBatch(items).then(
      (answers) => {
        for (const [i, item] of items.entries()) item.done(answers[i]);
      },
      (err) => {
        for (const item of items) item.done({ ok: false, err });
      },
    );
  };
  /** Runs `f` once the promise jobs already under way have had JOBS_TO_WAIT turns to ask for their reads. */
  const afterPendingJobs = async (f: () => unknown) => {
    for (let i = 0; i < JOBS_TO_WAIT; i++) await null;
    f();
  };
  /** A read's raw answer, sent with whatever other reads this turn brings. */
  const queued = (sql: string, params: unknown[]) =>
    new Promise<RawResult>((resolve, reject) => {
      queue.push({ sql, params, done: (o) => (o.ok ? resolve(o.r) : reject(o.err)) });
      if (queue.length === 1) afterPendingJobs(flush);
    });
  /** Anything that may write waits until the reads asked before it have been sent. */
  const inOrder = <R>(p: () => Promise<R>): Promise<R> => (queue.length ? flush().then(p) : p());

  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const reads = readsOnly(sql);
    /** all() or run(), as D1 answers them (run() may write whatever its SQL says). */
    const direct = (method: "all" | "run") => () =>
      time(async () => {
        const r = await stmt[method]();
        add(meter, r.meta);
        return r;
      });
    const send = senderOf(stmt);
    const s = stmt as Internal;
    sender ??= send;
    const all =
      send && reads
        ? async () => {
            const r = await queued(s.statement ?? sql, s.params ?? []);
            return asResult(r);
          }
        : () => inOrder(direct("all"));
    const runs: Record<string, (...args: never[]) => Promise<unknown>> = {
      all,
      run: () => inOrder(direct("run")),
      first: async (col?: string) => {
        const r = (await all()) as D1Result<Record<string, unknown>>;
        const row = r.results[0];
        return row === undefined ? null : col === undefined ? row : row[col];
      },
      raw: (options?: { columnNames?: boolean }) =>
        send && reads
          ? queued(s.statement ?? sql, s.params ?? []).then((r) => rawRows(r, options))
          : inOrder(() => time(() => rawMetered(stmt, meter, options))),
    };
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args), sql);
        if (typeof prop === "string" && Object.hasOwn(runs, prop)) return runs[prop];
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    real.set(proxy, stmt);
    sqlOf.set(proxy, sql);
    return proxy;
  };
  const batch = (stmts: D1PreparedStatement[]) => {
    const reals = stmts.map((s) => real.get(s) ?? s);
    const reads = stmts.every((s) => readsOnly(sqlOf.get(s)));
    // A batch of reads is reads asked for side by side: it joins the others.
    if (sender && reads) {
      return Promise.all(
        reals.map((s) => queued((s as Internal).statement ?? "", (s as Internal).params ?? []).then(asResult)),
      );
    }
    return inOrder(() =>
      time(async () => {
        const rs = await d1.batch(reals);
        for (const r of rs) add(meter, r.meta);
        return rs;
      }),
    );
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query), query);
      if (prop === "batch") return batch;
      if (prop === "exec") return (query: string) => inOrder(() => time(() => target.exec(query)));
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/**
 * `d1` keeps its round trips (and the wall time spent waiting); `d1-busy` is the database's own
 * time, `d1-rows` what it read and wrote.
 */
export const serverTiming = (m: D1Meter) =>
  `d1;desc="${m.trips} round trips";dur=${m.ms.toFixed(1)}, d1-busy;dur=${m.busy.toFixed(2)}, d1-rows;desc="${m.read} read ${m.written} written"`;

/** The round trips a Server-Timing header reports (what the tests hold to budgets). */
export function tripsOf(header: string | null | undefined): number {
  const m = /d1;desc="(\d+) round trips"/.exec(header ?? "");
  if (!m) throw new Error(`no d1 entry in Server-Timing: ${header}`);
  return Number(m[1]);
}

/** Everything the meter put in a Server-Timing header: trips, D1 busy ms, rows read and written. */
export function meterFromHeader(header: string | null | undefined): {
  trips: number;
  busy: number;
  read: number;
  written: number;
} {
  const busy = /d1-busy;dur=([\d.]+)/.exec(header ?? "");
  const rows = /d1-rows;desc="(\d+) read (\d+) written"/.exec(header ?? "");
  if (!busy || !rows) throw new Error(`no d1-busy/d1-rows entries in Server-Timing: ${header}`);
  return { trips: tripsOf(header), busy: Number(busy[1]), read: Number(rows[1]), written: Number(rows[2]) };
}
