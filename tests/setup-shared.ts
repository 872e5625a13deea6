import { applyD1Migrations, env } from "cloudflare:test";

// The "shared" project's files run one after another in one workerd per vitest worker
// (vitest.config.ts): each still begins on empty storage. Both databases are dropped and migrated
// again, and the KV namespace and the R2 bucket are emptied.
async function dropEverything(db: D1Database) {
  const { results } = await db
    .prepare(
      "select type, name, sql from sqlite_master where type in ('table', 'view', 'trigger') and name not like 'sqlite_%' and name not like '_cf_%'",
    )
    .all<{ type: string; name: string; sql: string | null }>();
  // A virtual table owns its shadow tables (notes_fts_data, …): dropping it drops them.
  const virtual = results.filter((r) => r.sql?.toLowerCase().startsWith("create virtual table")).map((r) => r.name);
  const tables = results
    .filter((r) => r.type === "table" && !virtual.some((v) => r.name.startsWith(`${v}_`)))
    .map((r) => r.name);
  // Children before parents: dropping a table deletes its rows, and each row's foreign key is
  // looked up in its parent, which must still be there.
  const parents = new Map(
    results.map((r) => [r.name, [...(r.sql ?? "").matchAll(/references\s+[`"]?(\w+)/gi)].map((m) => m[1])]),
  );
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size) {
    const leaves = [...left].filter((t) => ![...left].some((c) => c !== t && parents.get(c)?.includes(t)));
    // A cycle of foreign keys leaves no leaf: the rest go as they are.
    for (const t of leaves.length ? leaves : [...left]) {
      left.delete(t);
      order.push(t);
    }
  }
  const drops = [
    ...results.filter((r) => r.type !== "table").map((r) => db.prepare(`drop ${r.type} if exists "${r.name}"`)),
    ...order.map((t) => db.prepare(`drop table if exists "${t}"`)),
  ];
  if (drops.length) await db.batch([db.prepare("pragma defer_foreign_keys = on"), ...drops]);
}

async function emptyKv(kv: KVNamespace) {
  for (let cursor: string | undefined; ; ) {
    const page = await kv.list({ cursor });
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
    if (page.list_complete) return;
    cursor = page.cursor;
  }
}

async function emptyR2(bucket: R2Bucket) {
  for (let cursor: string | undefined; ; ) {
    const page = await bucket.list({ cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    if (!page.truncated) return;
    cursor = page.cursor;
  }
}

// Rate limits live in the runtime, not in storage, and a person's write budget is keyed by their id:
// the ids of people go on from where the previous file left them, so no file spends another's budget.
async function lastUserId(db: D1Database) {
  const { results } = await db
    .prepare("select name from sqlite_master where type = 'table' and name = 'sqlite_sequence'")
    .all();
  if (!results.length) return 0;
  return (await db.prepare("select seq from sqlite_sequence where name = 'users'").first<number>("seq")) ?? 0;
}

const { DB_B } = env as unknown as { DB_B: D1Database };
const lastUser = await lastUserId(env.DB);
await Promise.all([dropEverything(env.DB), dropEverything(DB_B), emptyKv(env.SESSIONS), emptyR2(env.IMAGES)]);
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
if (lastUser) await env.DB.prepare("insert into sqlite_sequence (name, seq) values ('users', ?)").bind(lastUser).run();
