// The bench's write ceiling (measure.mjs): mixed likes, follows, notes and replies from many
// clients at once, for the single writer D1 is.
import { load } from "./timing.mjs";

/** Runs the ceiling on `base` with `pool`'s writers; answers its figures and which answers came. */
export async function writeCeiling(base, pool, meta, { clients, seconds }) {
  let w = 0;
  const mixed = () => {
    const i = w++;
    const u = pool[i % pool.length];
    const h = { authorization: `Bearer ${u.token}`, "content-type": "application/json" };
    const note = 1 + ((i * 7919) % meta.notes);
    switch (i % 4) {
      case 0:
        return { method: i % 8 < 4 ? "POST" : "DELETE", path: `/v1/likes/${note}?t=note`, headers: h };
      case 1:
        return { method: i % 8 < 4 ? "POST" : "DELETE", path: `/v1/follows/${1 + (note % meta.users)}`, headers: h };
      case 2:
        return {
          method: "POST",
          path: "/v1/notes",
          headers: h,
          body: JSON.stringify({ label: "idea", content: `<p>load ${i}</p>` }),
        };
      default:
        return {
          method: "POST",
          path: "/v1/replies",
          headers: h,
          body: JSON.stringify({ parent: -note, content: `<p>re ${i}</p>` }),
        };
    }
  };
  const statuses = {};
  const r = await load(base, mixed, {
    seconds,
    connections: clients,
    onResponse: (status) => {
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  });
  return {
    clients,
    writesPerSecond: r.rps,
    p50: r.p50,
    p99: r.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    timeouts: r.timeouts,
    // Which answers they were, so an error count in the table says what to look at.
    statuses,
  };
}
