// Meters D1 per request (issues 9 and 19). Every statement run and every batch is one round trip;
// D1's own result meta adds the time the database was busy (`meta.duration`, summed: one D1 runs
// one query at a time, so this is what caps a database's requests per second) and the rows it
// read and wrote (what D1 bills, and what grows when a query walks an index it should not). The
// totals go out in Server-Timing, which the tests hold to budgets, the bench prints per row, and
// the browser's network panel shows.

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
  results?: { columns: string[]; rows: unknown[][] } | Record<string, unknown>[];
  meta?: Meta;
}

async function rawMetered(stmt: D1PreparedStatement, meter: D1Meter, options?: { columnNames?: boolean }) {
  const s = stmt as Internal;
  const send = s.dbSession?._sendOrThrow;
  if (typeof send !== "function") return options?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw();
  const answer = (await send.call(s.dbSession, "/query", s.statement, s.params, "ROWS_AND_COLUMNS")) as
    | RawResult
    | RawResult[];
  const r = Array.isArray(answer) ? answer[0] : answer;
  add(meter, r.meta);
  const res = r.results;
  if (!res) return [];
  if (Array.isArray(res)) {
    const rows = res.map((row) => Object.values(row));
    return options?.columnNames && res.length ? [Object.keys(res[0]), ...rows] : rows;
  }
  return options?.columnNames ? [res.columns, ...res.rows] : res.rows;
}

/** The same D1 binding, counting what crosses to the database into `meter`. */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  // Proxies carry their real statement so a batch hands workerd the objects it made.
  const real = new WeakMap<object, D1PreparedStatement>();
  const time = async <T>(p: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    meter.trips++;
    try {
      return await p();
    } finally {
      meter.ms += performance.now() - t;
    }
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const runs: Record<string, (...args: never[]) => Promise<unknown>> = {
      all: () =>
        time(async () => {
          const r = await stmt.all();
          add(meter, r.meta);
          return r;
        }),
      run: () =>
        time(async () => {
          const r = await stmt.run();
          add(meter, r.meta);
          return r;
        }),
      first: (col?: string) =>
        time(async () => {
          const r = await stmt.all<Record<string, unknown>>();
          add(meter, r.meta);
          const row = r.results[0];
          return row === undefined ? null : col === undefined ? row : row[col];
        }),
      raw: (options?: { columnNames?: boolean }) => time(() => rawMetered(stmt, meter, options)),
    };
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        if (typeof prop === "string" && Object.hasOwn(runs, prop)) return runs[prop];
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    real.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query));
      if (prop === "batch") {
        return (stmts: D1PreparedStatement[]) =>
          time(async () => {
            const rs = await target.batch(stmts.map((s) => real.get(s) ?? s));
            for (const r of rs) add(meter, r.meta);
            return rs;
          });
      }
      if (prop === "exec") return (query: string) => time(() => target.exec(query));
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
export function d1Of(header: string | null | undefined): {
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
