// Each bench row's bare twin (worker/bench/twins.ts holds the worker's side).

/**
 * Row `i`'s twin: its next requests sent once more with x-bench-capture, then the twin's requests
 * take turns over what was captured. A write captures a whole turn of its row (`next.turn`: a post
 * by each of its authors, whose followers, and so the notices a post writes, differ; a toggling
 * write, `next.captures`: one person's POST and DELETE, so each replay changes something as the
 * row's requests do), so the twin does the same work as the row. A read is sent once
 * before its capture, so the capture is of the row's steady state (a visitor's page from the page
 * cache, as the row's own requests get it). `trips`: the capture's D1 round trips, to hold against
 * the row's own (they must agree); `calls`: its platform calls (session read, rate limits, queue
 * send, live publish), which the twin makes too.
 */
export async function twinOf(base, i, next) {
  const ids = [];
  const trips = [];
  const calls = [];
  // A toggling write names its own pair of requests to capture (people.mjs toggle).
  const given = next.captures?.() ?? null;
  for (let k = 0; k < (given?.length ?? next.turn ?? 2); k++) {
    const r = given ? given[k] : next();
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
    // D1 trips only: the platform calls (capture.calls) ride beside them, and the row's own meter counts D1.
    trips.push(capture.waves.reduce((n, w) => n + w.filter((t) => !("call" in t)).length, 0));
    calls.push(capture.calls);
    if (r.method === "GET") break;
  }
  let n = 0;
  return {
    trips: Math.max(...trips),
    calls: [...new Set(calls.flat())],
    next: () => ({ method: "GET", path: `/__bench/twin/${ids[n++ % ids.length]}`, headers: {} }),
  };
}
