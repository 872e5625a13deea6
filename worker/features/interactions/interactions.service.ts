import { and, eq, sql } from "drizzle-orm";
import { bindPlan, planFrom } from "../../db/plan";
import { drizzleRead, type Read, readOne } from "../../db/reads";
import type { DB } from "../../env";
import {
  type ContentKind,
  rowsAbout,
  type TargetFacts,
  targetAllows,
  targetFacts,
  targetRefusal,
} from "../content/content";
import { type MarkKind, MARKS } from "./kinds";
import { insertWhere } from "../../db/insert";

/** The answer of a mark's reads and writes: `{ [state]: boolean }`, e.g. `{ bookmarked: true }`. */
export type MarkState<S extends string> = { [K in S]: boolean };

const answer = <S extends string>(k: MarkKind<S>, on: boolean) => ({ [k.state]: on }) as MarkState<S>;

/** The caller's mark on the content (an x-folder's whatever kind it was made under). */
const mine = (k: MarkKind, uid: number, kind: ContentKind, id: number) =>
  and(eq(k.table.userId, uid), rowsAbout(k.table, kind, id));

/** Whether `uid` marked the content: one statement. */
export function markRead<S extends string>(
  k: MarkKind<S>,
  db: DB,
  uid: number,
  kind: ContentKind,
  id: number,
): Read<MarkState<S>> {
  const plan = planFrom(
    db
      .select({ one: sql`1`.as("x_one") })
      .from(k.table)
      .where(mine(k, uid, kind, id))
      .limit(1),
  );
  return { statements: [bindPlan(db, plan, {})], value: ([r]) => answer(k, r.results.length > 0) };
}

export const isMarked = <S extends string>(k: MarkKind<S>, db: DB, uid: number, kind: ContentKind, id: number) =>
  readOne(db, markRead(k, db, uid, kind, id));

/**
 * Marking or unmarking, as a Read (the statements of one batch, its answer from their rows); marking
 * again is a no-op, and nothing is marked across a block. A caller may add reads after it.
 */
export function markWrite<S extends string>(
  k: MarkKind<S>,
  db: DB,
  uid: number,
  kind: ContentKind,
  id: number,
  on: boolean,
) {
  if (!on)
    return drizzleRead(db, { unmarked: db.delete(k.table).where(mine(k, uid, kind, id)) }, () => answer(k, false));
  // The target's facts lead the insert's own batch; the insert holds the same condition in its own
  // statement, so a refused mark stores nothing.
  const statements = {
    facts: targetFacts(db, kind, id, uid, true),
    marked: insertWhere(
      db,
      k.table,
      { userId: uid, kind, targetId: id, createdAt: Date.now() },
      sql`${targetAllows(db, kind, id, uid, true, true)} and not exists (select 1 from ${k.table} where ${mine(k, uid, kind, id)})`,
    ).onConflictDoNothing(),
  };
  return drizzleRead(db, statements, (rows) => {
    const [facts] = rows.facts as TargetFacts[];
    const refused = targetRefusal(facts, true);
    if (refused) throw refused;
    return answer(k, true);
  });
}

/** Marks or unmarks, in one round trip. */
export async function mark<S extends string>(...args: Parameters<typeof markWrite<S>>) {
  const write = markWrite(...args);
  return await readOne(args[1], write);
}

/**
 * The state of every private mark of `uid` on the content, by its `state` word
 * (`{ bookmarked: true }`): one statement, one primary-key lookup per kind, for a page's batch.
 */
export function marksRead(db: DB, uid: number, kind: ContentKind, id: number): Read<Record<string, boolean>> {
  const columns = Object.fromEntries(
    MARKS.map((k) => [
      k.state,
      sql<number>`exists(select 1 from ${k.table} where ${mine(k, uid, kind, id)})`.as(`x_${k.state}`),
    ]),
  );
  const plan = planFrom(db.select(columns).from(sql`(select 1)`));
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]) => Object.fromEntries(MARKS.map((k) => [k.state, !!r.results[0]?.[`x_${k.state}`]])),
  };
}
