// What a list reads of likes beside its rows. A like itself is written by the counted interactions'
// shared service (interactions/rows.service.ts, from its entry LIKES in interactions/kinds.ts).
import { type SQL, sql } from "drizzle-orm";

/** The kind as a constant of the statement (not a bound value: a plan's shape stays the same). */
const KIND_LITERAL = { note: sql`'note'`, reply: sql`'reply'` } as const;

/** Whether `viewer` liked a (kind, target): one primary-key lookup, for a list's select. */
export const likedBy = (viewer: unknown, kind: "note" | "reply", target: SQL) =>
  sql<number>`exists(select 1 from likes l where l.user_id = ${viewer} and l.kind = ${KIND_LITERAL[kind]} and l.target_id = ${target})`;
