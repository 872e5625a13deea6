// Each bench row's bare twin (worker/bench/twins.ts holds the worker's side).

/**
 * Row `i`'s twin: its next request sent once more with x-bench-capture (a toggling write: its POST
 * and its DELETE, each captured), then the twin's requests alternate over what was captured. A read
 * is sent once before its capture, so the capture is of the row's steady state (a visitor's page
 * from the page cache, as the row's own requests get it). `trips`: the capture's D1 round trips, to
 * hold against the row's own (they must agree).
 */
export async function twinOf(base, i, next) {
  const ids = [];
  const trips = [];
  for (let k = 0; k < 2; k++) {
    const r = next();
    if (r.method === "GET") {
      const warm = await fetch(`${base}${r.path}`, { headers: r.headers, redirect: "manual" });
      await warm.arrayBuffer();
    }
    const id = `r${i}-${k}`;
    const res = await fetch(`${base}${r.path}`, {
      method: r.method,
      headers: { ...r.headers, "x-bench-capture": id },
      body: r.body,
      redirect: "manual",
    });
    await res.arrayBuffer();
    const capture = await (await fetch(`${base}/__bench/capture/${id}`)).json();
    ids.push(id);
    trips.push(capture.waves.reduce((n, w) => n + w.length, 0));
    if (r.method === "GET") break;
  }
  let n = 0;
  return {
    trips: Math.max(...trips),
    next: () => ({ method: "GET", path: `/__bench/twin/${ids[n++ % ids.length]}`, headers: {} }),
  };
}
