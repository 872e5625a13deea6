import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { Res } from "./http";

/**
 * Every row of every app table, and every sign-in session in KV (record keys, not "last active"),
 * as one string: equal snapshots mean the call changed nothing. The search indexes (*_fts and
 * their shadow tables) are left out: they are derived from the tables that are in, by triggers.
 */
export async function snapshot(): Promise<string> {
  const { results: tables } = await env.DB.prepare(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name != 'd1_migrations' and name not glob '*_fts*' order by name",
  ).all<{ name: string }>();
  const stmts = tables.map((t) => env.DB.prepare(`select * from "${t.name}" order by rowid`));
  const results = await env.DB.batch(stmts);
  const sessions = await sessionKeys();
  return JSON.stringify([...tables.map((t, i) => [t.name, results[i].results]), ["kv sessions", sessions]]);
}

async function sessionKeys(): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.SESSIONS.list({ prefix: "session:", cursor });
    names.push(...page.keys.map((k) => k.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return names.sort();
}

/** `send` is refused with 422 and the spec's `message` for `field`, and changes nothing in D1. */
export async function refusedUnchanged(send: () => Promise<Res>, field: string, message: string) {
  const before = await snapshot();
  const res = await send();
  expect(res.status).toBe(422);
  expect(res.body.fields[field]).toBe(message);
  expect(await snapshot()).toBe(before);
}
