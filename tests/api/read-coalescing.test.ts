// Reads asked for side by side in one request share one D1 round trip (worker/db/meter.ts): a
// page whose loaders call the API in parallel pays one trip for them, not one each. On the real
// D1 binding of workerd, through the meter every request uses.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { meteredD1, newMeter } from "../../worker/db/meter";

const fresh = () => {
  const meter = newMeter();
  return { meter, db: meteredD1(env.DB.withSession("first-primary") as unknown as D1Database, meter) };
};

describe("reads asked for together share a round trip", () => {
  it("answers each read its own rows, in one trip, whatever method asked", async () => {
    const { meter, db } = fresh();
    const [a, b, c, d] = await Promise.all([
      db.prepare("select ?1 as x, 'a' as y").bind(1).all(),
      db.prepare("select ?1 as x, ?1 as x").bind(2).raw(),
      db.prepare("select 3 as x").first("x"),
      db.prepare("with t(v) as (values (4), (5)) select v from t order by v").all(),
    ]);
    expect(a.results).toEqual([{ x: 1, y: "a" }]);
    // raw() keeps duplicate column names apart, as drizzle's joins need.
    expect(b).toEqual([[2, 2]]);
    expect(c).toBe(3);
    expect(d.results).toEqual([{ v: 4 }, { v: 5 }]);
    expect(meter.trips).toBe(1);
  });

  it("a read that fails fails alone: the others still answer", async () => {
    const { meter, db } = fresh();
    const [good, bad, also] = await Promise.allSettled([
      db.prepare("select 1 as x").all(),
      db.prepare("select * from no_such_table").all(),
      db.prepare("select 2 as x").raw(),
    ]);
    expect(good.status === "fulfilled" && good.value.results).toEqual([{ x: 1 }]);
    expect(bad.status).toBe("rejected");
    expect(String(bad.status === "rejected" && bad.reason)).toContain("no_such_table");
    expect(also.status === "fulfilled" && also.value).toEqual([[2]]);
    // The batch, then each read again alone.
    expect(meter.trips).toBe(4);
  });

  it("a write asked for after a read runs after it: the read never sees the write", async () => {
    const { meter, db } = fresh();
    const name = `coalesce${Date.now()}`;
    const before = db.prepare("select count(*) as n from users where username = ?1").bind(name).first("n");
    const write = db
      .prepare("insert into users (username, email, fullname, created_at) values (?1, ?1 || '@example.com', 'C', 0)")
      .bind(name)
      .run();
    await write;
    expect(await before).toBe(0);
    const after = await db.prepare("select count(*) as n from users where username = ?1").bind(name).first("n");
    expect(after).toBe(1);
    expect(meter.trips).toBe(3);
  });

  it("reads one after another stay one trip each", async () => {
    const { meter, db } = fresh();
    expect(await db.prepare("select 1 as x").first("x")).toBe(1);
    expect(await db.prepare("select 2 as x").first("x")).toBe(2);
    expect(meter.trips).toBe(2);
  });
});
