// Meters D1 per request. Every call that crosses to the database counts one round trip: a
// statement's all(), run(), first() or raw(), a batch, an exec. D1's documented result meta adds
// the time the database was busy (`meta.duration`, summed: one D1 runs one query at a time, so
// this is what caps a database's requests per second) and the rows it read and wrote (what D1
// bills, and what grows when a query walks an index it should not). all(), run() and batch()
// answer with that meta; first() is answered here from all(); raw() has none, so its rows go
// uncounted (its trip and wall time are counted): the app's reads use all() and batch()
// (db/plan.ts, db/reads.ts). Nothing is held back or regrouped: the trips are the calls the code
// makes. Under APP_ENV=local the totals go out in Server-Timing (worker/app.ts), which the tests
// hold to budgets and the bench prints per row; in production only the request log has them.

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

/** One trip: counted, timed, and its results' meta added. */
async function trip<T>(meter: D1Meter, send: () => Promise<T>, metaOf: (answer: T) => (D1Meta | undefined)[]) {
  const started = performance.now();
  meter.trips++;
  try {
    const answer = await send();
    for (const meta of metaOf(answer)) {
      meter.busy += meta?.duration ?? 0;
      meter.read += meta?.rows_read ?? 0;
      meter.written += meta?.rows_written ?? 0;
    }
    return answer;
  } finally {
    meter.ms += performance.now() - started;
  }
}

/** A prepared statement whose trips are counted into `meter`. */
class MeteredStatement implements D1PreparedStatement {
  constructor(
    readonly real: D1PreparedStatement,
    private readonly meter: D1Meter,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.real.bind(...values), this.meter);
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return trip(
      this.meter,
      () => this.real.all<T>(),
      (r) => [r.meta],
    );
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return trip(
      this.meter,
      () => this.real.run<T>(),
      (r) => [r.meta],
    );
  }

  first<T = unknown>(column: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  async first<T>(column?: string): Promise<T | null> {
    const { results: rows } = await this.all<Record<string, unknown>>();
    const row = rows[0];
    if (row === undefined) return null;
    return (column === undefined ? row : row[column]) as T;
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<T[] | [string[], ...T[]]> {
    return trip(
      this.meter,
      (): Promise<T[] | [string[], ...T[]]> =>
        options?.columnNames ? this.real.raw<T>({ columnNames: true }) : this.real.raw<T>(),
      () => [],
    );
  }
}

/** The same D1 binding, counting what crosses to the database into `meter`. */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  const unwrapped = (s: D1PreparedStatement) => (s instanceof MeteredStatement ? s.real : s);
  return {
    prepare: (query: string) => new MeteredStatement(d1.prepare(query), meter),
    batch: <T = unknown>(statements: D1PreparedStatement[]) =>
      trip(
        meter,
        () => d1.batch<T>(statements.map(unwrapped)),
        (rs) => rs.map((r) => r.meta),
      ),
    exec: (query: string) =>
      trip(
        meter,
        () => d1.exec(query),
        () => [],
      ),
    dump: () => d1.dump(),
    withSession: (constraint?: D1SessionConstraint | D1SessionBookmark) => d1.withSession(constraint),
  } as D1Database;
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
