// The D1 meter (worker/db/meter.ts) counts every call that crosses to the database as one round
// trip and adds D1's documented result meta: nothing is held back or regrouped, so the trips a
// request makes are the calls its code makes. On the real D1 binding of workerd.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { meteredD1, newMeter } from "../../worker/db/meter";

const fresh = () => {
  const meter = newMeter();
  return { meter, db: meteredD1(env.DB.withSession("first-primary") as unknown as D1Database, meter) };
};

describe("the D1 meter counts each call to D1 as it is made", () => {
  it("reads asked for side by side are one trip each: only a batch the code sends is one trip", async () => {
    const { meter, db } = fresh();
    const [a, b] = await Promise.all([
      db.prepare("select ?1 as x").bind(1).all(),
      db.prepare("select ?1 as x").bind(2).all(),
    ]);
    expect([a.results, b.results]).toEqual([[{ x: 1 }], [{ x: 2 }]]);
    expect(meter.trips).toBe(2);
    const [c, d] = await db.batch([db.prepare("select 3 as x"), db.prepare("select ?1 as y").bind(4)]);
    expect([c.results, d.results]).toEqual([[{ x: 3 }], [{ y: 4 }]]);
    expect(meter.trips).toBe(3);
  });

  it("adds the rows D1 reports read and written for all(), first(), run() and batch()", async () => {
    const { meter, db } = fresh();
    const name = `meter${Date.now()}`;
    await db
      .prepare("insert into users (username, email, fullname, created_at) values (?1, ?1 || '@example.com', 'M', 0)")
      .bind(name)
      .run();
    expect(meter.written).toBeGreaterThan(0);
    const written = meter.written;
    const before = meter.read;
    expect(await db.prepare("select id from users where username = ?1").bind(name).first("id")).toEqual(
      expect.any(Number),
    );
    expect(meter.read).toBeGreaterThan(before);
    const [r] = await db.batch([db.prepare("select count(*) as n from users where username = ?1").bind(name)]);
    expect(r.results).toEqual([{ n: 1 }]);
    expect(meter.written).toBe(written);
    expect(meter.trips).toBe(3);
    expect(meter.busy).toBeGreaterThanOrEqual(0);
  });

  it("raw() is a trip with its wall time; D1 documents no meta for it, so its rows are not counted", async () => {
    const { meter, db } = fresh();
    // raw() keeps duplicate column names apart (drizzle's joins rely on it).
    expect(await db.prepare("select ?1 as x, ?1 as x").bind(2).raw()).toEqual([[2, 2]]);
    expect(await db.prepare("select 1 as a, 2 as b").raw({ columnNames: true })).toEqual([
      ["a", "b"],
      [1, 2],
    ]);
    expect(meter.trips).toBe(2);
    expect(meter.read).toBe(0);
    expect(meter.ms).toBeGreaterThan(0);
  });

  it("a failing statement is its own trip and fails as D1 answers it", async () => {
    const { meter, db } = fresh();
    await expect(db.prepare("select * from no_such_table").all()).rejects.toThrow(/no_such_table/);
    expect(meter.trips).toBe(1);
  });
});
