// Fedify's KvStore over D1 (table fed_kv). D1 rather than a KV namespace: Fedify keeps inbox
// idempotence and circuit-breaker state here, and KV's ~60 s eventual consistency would let a
// redelivered activity through twice. Expired rows read as missing; the hourly cleanup removes them
// (worker/features/cleanup: federation-kv).
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";

const encode = (key: KvKey) => JSON.stringify(key);

export class D1KvStore implements KvStore {
  constructor(private readonly db: D1Database) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const row = await this.db
      .prepare("select value from fed_kv where key = ? and (expires_at is null or expires_at > ?)")
      .bind(encode(key), Date.now())
      .first<{ value: string }>();
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const expires = options?.ttl ? Date.now() + options.ttl.total("milliseconds") : null;
    await this.db
      .prepare(
        "insert into fed_kv (key, value, expires_at) values (?, ?, ?) on conflict(key) do update set value = excluded.value, expires_at = excluded.expires_at",
      )
      .bind(encode(key), JSON.stringify(value), expires)
      .run();
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.prepare("delete from fed_kv where key = ?").bind(encode(key)).run();
  }

  /** Compare-and-swap in one statement (D1 runs one statement at a time, so it is atomic). */
  async cas(key: KvKey, expected: unknown, value: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const k = encode(key);
    const expires = options?.ttl ? Date.now() + options.ttl.total("milliseconds") : null;
    const now = Date.now();
    if (expected === undefined) {
      const res = await this.db
        .prepare(
          "insert into fed_kv (key, value, expires_at) values (?, ?, ?) on conflict(key) do update set value = excluded.value, expires_at = excluded.expires_at where fed_kv.expires_at is not null and fed_kv.expires_at <= ?",
        )
        .bind(k, JSON.stringify(value), expires, now)
        .run();
      return res.meta.changes > 0;
    }
    const res = await this.db
      .prepare(
        "update fed_kv set value = ?, expires_at = ? where key = ? and value = ? and (expires_at is null or expires_at > ?)",
      )
      .bind(JSON.stringify(value), expires, k, JSON.stringify(expected), now)
      .run();
    return res.meta.changes > 0;
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    // Keys are JSON arrays: a prefix's children start with its encoding minus the closing bracket.
    const exact = prefix?.length ? encode(prefix) : null;
    const escaped = (exact ? `${exact.slice(0, -1)},` : "[").replace(/[\\%_]/g, "\\$&");
    const { results } = await this.db
      .prepare(
        "select key, value from fed_kv where (key = ? or key like ? escape '\\') and (expires_at is null or expires_at > ?) order by key",
      )
      .bind(exact, `${escaped}%`, Date.now())
      .all<{ key: string; value: string }>();
    for (const r of results) yield { key: JSON.parse(r.key) as KvKey, value: JSON.parse(r.value) };
  }
}
