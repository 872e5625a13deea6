// How the bench times a row (measure.mjs): alone (sequential fetches, each response's D1 meter read
// from Server-Timing) and under load (autocannon), with the CPU the worker's runtime spent per
// request, read from /proc.
import { readdirSync, readFileSync } from "node:fs";
import autocannon from "autocannon";

export const median = (xs) => {
  const s = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : null;
};

/**
 * CPU ms so far of the workerd that runs the worker (and, locally, its D1 and KV): a child of the
 * worker process (`workerPid`) serving on a port of its own (entry=127.0.0.1:0), not wrangler's
 * proxy in front of it. Null where /proc cannot tell (not Linux): the column then reads "-".
 * Under load on 2 cores this is the core the rows wait for, so its CPU per request explains a ratio.
 */
export function runtimeCpu(workerPid) {
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

/** The d1 entries of the worker's Server-Timing (worker/db/meter.ts). */
export function d1Of(header) {
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

/**
 * A load of `next()`'s requests on `base` for `seconds` from `connections` clients, every response
 * time kept (autocannon's own percentiles are whole ms); `onResponse(status)` sees each answer.
 */
export function load(base, next, { seconds, connections, onResponse = () => {} }) {
  const times = [];
  return new Promise((resolve, reject) => {
    const run = autocannon(
      {
        url: base,
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
              times,
              p50: percentile(times, 0.5),
              p99: percentile(times, 0.99),
              rps: res.requests.average,
              errors: res.errors + res.non2xx + res.timeouts,
              non2xx: res.non2xx,
              timeouts: res.timeouts,
            }),
    );
    run.on("response", (_client, status, _bytes, ms) => {
      times.push(ms);
      onResponse(status);
    });
  });
}

/** The two ways a row is timed, on the worker at `base` whose process is `workerPid`. */
export function timers(base, workerPid) {
  const cpuNow = runtimeCpu(workerPid);
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
      const res = await fetch(`${base}${r.path}`, {
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
  /** Under load: autocannon for `seconds`, and the worker's CPU per answered request. */
  async function loaded(next, seconds, connections) {
    const cpu0 = cpuNow();
    const r = await load(base, next, { seconds, connections });
    return {
      p50: r.p50,
      p99: r.p99,
      cpu: cpu0 === null || !r.times.length ? null : (cpuNow() - cpu0) / r.times.length,
      rps: r.rps,
      errors: r.errors,
    };
  }
  return { alone, loaded };
}
