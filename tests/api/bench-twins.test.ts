// The bench's bare twins (worker/bench/twins.ts): a request's D1 trips, captured under
// `npm run bench`, replayed by a handler with no app around them; and nothing of it anywhere else.
import { afterEach, describe, expect, it, vi } from "vitest";
import { meterFromHeader } from "../../worker/db/meter";
import type { Env } from "../../worker/env";
import { user } from "../factories";
import { callWith as call } from "../http";
import { PRODUCTION_ENV } from "../prod-env";
import { MemoryQueue } from "../fediverse";
import { kindOfId } from "../../worker/lib/ids";

const BENCH = { BENCH_TWINS: "1" };

type D1Trip = { batch: boolean; method: string; statements: { sql: string; params: unknown[] }[] };
interface Capture {
  primary: boolean;
  waves: (D1Trip | { call: { binding: string; method: string } })[][];
  calls: string[];
}
const d1Of = (c: Capture) => c.waves.flat().filter((t): t is D1Trip => "statements" in t);
const tripsIn = (c: Capture) => d1Of(c).length;
const statementsIn = (c: Capture) => d1Of(c).reduce((n, t) => n + t.statements.length, 0);

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
    expect(d1Of(capture).every((t) => t.statements.every((s) => /^\s*(select|with)\b/i.test(s.sql)))).toBe(true);

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
    expect(d1Of(capture).some((t) => t.statements.some((s) => /^\s*insert\b/i.test(s.sql)))).toBe(true);
    expect((await call(BENCH, "/__bench/twin/follow-1")).status).toBe(200);
  });

  it("capture a write's platform calls (session read, write budget, queue send) and its twin makes them again", async () => {
    const a = await user();
    const queue = new MemoryQueue();
    const spent: string[] = [];
    const RL_WRITE = {
      limit: async ({ key }: { key: string }) => {
        spent.push(key);
        return { success: true };
      },
    };
    const bindings = { ...BENCH, FED_QUEUE: queue, RL_WRITE } as unknown as Partial<Env>;
    // Naming someone on another server: the post is delivered (one queue message).
    const res = await call(bindings, "/v1/notes", {
      method: "POST",
      headers: { authorization: `Bearer ${a.token}`, "content-type": "application/json", "x-bench-capture": "post-1" },
      body: JSON.stringify({ label: "idea", content: "<p>hello @someone@elsewhere.example</p>" }),
    });
    expect(res.status).toBe(201);
    expect(queue.items).toHaveLength(1);
    expect(spent).toEqual([`w:${a.id}`]);
    const capture = (await (await call(bindings, "/__bench/capture/post-1")).json()) as Capture;
    expect(capture.calls).toEqual(expect.arrayContaining(["SESSIONS.get", "RL_WRITE.limit", "FED_QUEUE.send"]));
    // The platform calls ride beside the D1 trips, which still agree with the request's own meter.
    expect(tripsIn(capture)).toBe(meterFromHeader(res.headers.get("server-timing")).trips);

    expect((await call(bindings, "/__bench/twin/post-1")).status).toBe(200);
    expect(queue.items).toHaveLength(2);
    // The same call on a key of the twin's own: the person's own budget is not spent by the twin.
    expect(spent).toEqual([`w:${a.id}`, `bench-twin:w:${a.id}`]);
    const mine = await call(BENCH, `/v1/notes?uid=${a.id}&page=1`);
    // Its insert made a note of its own, under a new id of a note's kind (the capture's was taken).
    const made = ((await mine.json()) as { notes: { id: number }[] }).notes.map((n) => n.id);
    expect(new Set(made).size).toBe(2);
    expect(made.map(kindOfId)).toEqual(["note", "note"]);
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
