// Counts D1 round trips per request (issue 9: a page's loader needs at most two). Every statement
// run and every batch is one trip; the total goes out as a Server-Timing entry, which the tests
// read to hold each page and list to its budget, and which shows in the browser's network panel.

export interface D1Meter {
  trips: number;
  ms: number;
}

const RUNS = new Set(["first", "all", "run", "raw"]);

/** The same D1 binding, counting what crosses to the database into `meter`. */
export function meteredD1(d1: D1Database, meter: D1Meter): D1Database {
  // Proxies carry their real statement so a batch hands workerd the objects it made.
  const real = new WeakMap<object, D1PreparedStatement>();
  const time = async <T>(p: Promise<T>): Promise<T> => {
    const t = performance.now();
    meter.trips++;
    try {
      return await p;
    } finally {
      meter.ms += performance.now() - t;
    }
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        const v = Reflect.get(target, prop, target);
        if (typeof prop === "string" && RUNS.has(prop) && typeof v === "function") {
          return (...args: unknown[]) => time(v.apply(target, args));
        }
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
        return (stmts: D1PreparedStatement[]) => time(target.batch(stmts.map((s) => real.get(s) ?? s)));
      }
      if (prop === "exec") return (query: string) => time(target.exec(query));
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

export const serverTiming = (m: D1Meter) => `d1;desc="${m.trips} round trips";dur=${m.ms.toFixed(1)}`;

/** The round trips a Server-Timing header reports (what the tests hold to budgets). */
export function tripsOf(header: string | null | undefined): number {
  const m = /d1;desc="(\d+) round trips"/.exec(header ?? "");
  if (!m) throw new Error(`no d1 entry in Server-Timing: ${header}`);
  return Number(m[1]);
}
