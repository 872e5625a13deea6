import { env } from "cloudflare:test";

/** Every row of every app table, as one string: equal snapshots mean the call changed nothing in D1. */
export async function snapshot(): Promise<string> {
  const { results: tables } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name != 'd1_migrations' order by name",
  ).all<{ name: string }>();
  const stmts = tables.map((t) => env.DB.prepare(`select * from "${t.name}" order by rowid`));
  const results = await env.DB.batch(stmts);
  return JSON.stringify(tables.map((t, i) => [t.name, results[i].results]));
}
