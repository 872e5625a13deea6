// The bench's bare twins (worker/bench/twins.ts): a request's D1 trips, captured under
// `npm run bench`, replayed by a handler with no app around them; and nothing of it anywhere else.
import { afterEach, describe, expect, it, vi } from "vitest";
import { meterFromHeader } from "../../worker/db/meter";
import type { Env } from "../../worker/env";
import { user } from "../factories";
import { callWith as call } from "../http";
import { PRODUCTION_ENV } from "../prod-env";

const BENCH = { BENCH_TWINS: "1" };

interface Capture {
  primary: boolean;
  waves: { batch: boolean; method: string; statements: { sql: string; params: unknown[] }[] }[][];
}
const tripsIn = (c: Capture) => c.waves.reduce((n, w) => n + w.length, 0);
const statementsIn = (c: Capture) => c.waves.flat().reduce((n, t) => n + t.statements.length, 0);

afterEach(() => vi.restoreAllMocks());

describe("bench twins", () => {
  it("capture a read's own trips, and its twin sends the same statements and answers the same rows", async () => {
    const a = await user();
    await a.post("/v1/notes", { label: "idea", content: "<p>twin</p>" });
    const path = `/v1/notes?uid=${a.id}&xlabel=idea&page=1`;
    const res = await call(BENCH, path, { headers: { "x-bench-capture": "list-1" } });
    expect(res.status).toBe(200);
    const listed = (await res.json()) as { notes: { content: string }[] };
    const meter = meterFromHeader(res.headers.get("server-timing"));

    const capture = (await (await call(BENCH, "/__bench/capture/list-1")).json()) as Capture;
    expect(capture.primary).toBe(false);
    expect(tripsIn(capture)).toBe(meter.trips);
    expect(statementsIn(capture)).toBeGreaterThan(0);
    expect(capture.waves.flat().every((t) => t.statements.every((s) => /^\s*(select|with)\b/i.test(s.sql)))).toBe(true);

    const twin = await call(BENCH, "/__bench/twin/list-1");
    expect(twin.status).toBe(200);
    expect(twin.headers.get("server-timing")).toBeNull(); // no app around it: no meter, no middleware
    expect(JSON.stringify(await twin.json())).toContain(JSON.stringify(listed.notes[0].content).slice(1, -1));
  });

  it("capture a write (its session check and batch) and replay it on the primary", async () => {
    const [a, b] = [await user(), await user()];
    const res = await call(BENCH, `/v1/follows/${b.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${a.token}`, "x-bench-capture": "follow-1" },
    });
    expect(res.status).toBeLessThan(300);
    const capture = (await (await call(BENCH, "/__bench/capture/follow-1")).json()) as Capture;
    expect(capture.primary).toBe(true);
    expect(tripsIn(capture)).toBe(meterFromHeader(res.headers.get("server-timing")).trips);
    expect(capture.waves.flat().some((t) => t.statements.some((s) => /^\s*insert\b/i.test(s.sql)))).toBe(true);
    expect((await call(BENCH, "/__bench/twin/follow-1")).status).toBe(200);
  });

  it("an unknown capture is a 404", async () => {
    await call(BENCH, "/v1/health");
    expect((await call(BENCH, "/__bench/twin/nothing")).status).toBe(404);
  });

  it("exist only under APP_ENV=local with BENCH_TWINS=1: elsewhere a capture header changes nothing", async () => {
    vi.spyOn(console, "log").mockImplementation(() => {}); // production logs every request
    await call(BENCH, "/v1/discover?page=1", { headers: { "x-bench-capture": "seen" } });
    expect((await call(BENCH, "/__bench/twin/seen")).status).toBe(200);
    for (const bindings of [{}, { BENCH_TWINS: "0" }, { ...PRODUCTION_ENV, ...BENCH }] as Partial<Env>[]) {
      const res = await call(bindings, "/v1/discover?page=1", { headers: { "x-bench-capture": "never" } });
      expect(res.status).toBeLessThan(500);
      for (const path of ["/__bench/twin/seen", "/__bench/capture/seen", "/__bench/twin/never"]) {
        const r = await call(bindings, path);
        // Not the twin: the app's own answer to an unknown page (through its middleware: metered).
        expect(r.status, `${JSON.stringify(bindings)} ${path}`).toBe(404);
        // The meter shows only locally.
        const timing = r.headers.get("server-timing");
        if (bindings.APP_ENV === "production") expect(timing, path).toBeNull();
        else expect(timing, path).toContain("round trips");
      }
    }
    expect((await call(BENCH, "/__bench/twin/never")).status).toBe(404);
  });
});
