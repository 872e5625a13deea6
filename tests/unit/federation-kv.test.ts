// Fedify's key-value store over D1 (worker/features/federation/kv.ts): expiry, compare-and-swap
// and listing by prefix, the operations Fedify's idempotence and circuit breaker rely on.
import { env } from "cloudflare:workers";
import { Temporal } from "@js-temporal/polyfill";
import { describe, expect, it } from "vitest";
import { D1KvStore } from "../../worker/features/federation/kv";

describe("D1KvStore", () => {
  it("gets what was set, forgets what expired or was deleted", async () => {
    const kv = new D1KvStore(env.DB);
    await kv.set(["t", "a"], { n: 1 });
    expect(await kv.get(["t", "a"])).toEqual({ n: 1 });
    await kv.set(["t", "gone"], 1, { ttl: Temporal.Duration.from({ milliseconds: -1 }) });
    expect(await kv.get(["t", "gone"])).toBeUndefined();
    await kv.delete(["t", "a"]);
    expect(await kv.get(["t", "a"])).toBeUndefined();
  });

  it("swaps only from the expected value (undefined: only when absent)", async () => {
    const kv = new D1KvStore(env.DB);
    expect(await kv.cas(["c", "x"], undefined, 1)).toBe(true);
    expect(await kv.cas(["c", "x"], undefined, 2)).toBe(false);
    expect(await kv.cas(["c", "x"], 5, 2)).toBe(false);
    expect(await kv.cas(["c", "x"], 1, 2)).toBe(true);
    expect(await kv.get(["c", "x"])).toBe(2);
  });

  it("lists a prefix and its children, not its siblings (underscores and % are literal)", async () => {
    const kv = new D1KvStore(env.DB);
    await kv.set(["l_1"], 0);
    await kv.set(["l_1", "a"], 1);
    await kv.set(["l_1", "b", "c"], 2);
    await kv.set(["lx1", "a"], 3);
    const keys: string[] = [];
    for await (const e of kv.list(["l_1"])) keys.push(e.key.join("/"));
    expect(keys.sort()).toEqual(["l_1", "l_1/a", "l_1/b/c"]);
  });
});
