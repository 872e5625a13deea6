import { Placeholder } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "../env";

// Hot reads and writes build their statements with drizzle once per shape (values as
// sql.placeholder) and then only bind: query building was a tenth of a list request's CPU, and
// most of a like's own. Rows come back as arrays and are named here, in the select's own order.

export interface Plan {
  text: string;
  /** Each bound value: a placeholder's name, or a constant of the shape. */
  params: ({ name: string } | { value: unknown })[];
  /** The select's field names, in column order. */
  keys: string[];
}

const plans = new Map<string, Plan>();
const namedBatches = new Map<string, Record<string, Plan>>();

/** A drizzle select: its SQL, and the fields it was given (their order is the columns' order). */
interface BuiltSelect {
  toSQL(): { sql: string; params: unknown[] };
  _: { selectedFields: object };
}

/** A drizzle statement of a write's batch: a select, or an insert, update or delete (no fields). */
export interface BuiltStatement {
  toSQL(): { sql: string; params: unknown[] };
  _?: object;
}

/** A statement built with drizzle, as the statement helpers answer it: for drizzleRead (reads.ts) or drizzle's batch. */
export type Statement = BatchItem<"sqlite"> & BuiltStatement;

/** The plan for `key`, built on first use. The builder must use placeholders for every request value. */
export function planOf(key: string, build: () => BuiltSelect): Plan {
  const cached = plans.get(key);
  if (cached) return cached;
  const plan = planFrom(build());
  plans.set(key, plan);
  return plan;
}

/**
 * The plans of a write's batch for `key`, statement by statement and each by its name (so its
 * results are read by the same names), built on first use: the builder must use placeholders for
 * every request value. Bound with bindNamed.
 */
export function namedBatchPlanOf<K extends string>(
  key: string,
  build: () => Record<K, BuiltStatement>,
): Record<K, Plan> {
  const cached = namedBatches.get(key);
  if (cached) return cached as Record<K, Plan>;
  const built = Object.fromEntries(Object.entries<BuiltStatement>(build()).map(([name, q]) => [name, planFrom(q)]));
  namedBatches.set(key, built);
  return built as Record<K, Plan>;
}

/** Each named plan bound to `values`, under the same names (for namedRead). */
export const bindNamed = <K extends string>(db: DB, plans: Record<K, Plan>, values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries<Plan>(plans).map(([name, plan]) => [name, bindPlan(db, plan, values)])) as Record<
    K,
    D1PreparedStatement
  >;

/**
 * The plan of one statement, not kept: for a query built with its values in it (a list whose shape
 * varies), so it can go to D1 in a page's batch and its rows be named the same way.
 */
export function planFrom(query: BuiltStatement): Plan {
  const { sql, params } = query.toSQL();
  return {
    text: sql,
    params: params.map((p) => (p instanceof Placeholder ? { name: p.name } : { value: p })),
    // Only a select has fields (drizzle keeps them at `_.selectedFields`); a write's rows are none.
    keys: Object.keys((query._ as { selectedFields?: object } | undefined)?.selectedFields ?? {}),
  };
}

/** The D1 binding drizzle was made with (its documented `$client`): the request's metered D1. */
export const bindingOf = (db: DB) => (db as unknown as { $client: D1Database }).$client;

/** A plan's bound values in order: placeholders from `values`, constants as built. */
export const planValues = (plan: Plan, values: Record<string, unknown>) =>
  plan.params.map((p) => ("name" in p ? (values[p.name] ?? null) : p.value));

export function bindPlan(db: DB, plan: Plan, values: Record<string, unknown>): D1PreparedStatement {
  return bindingOf(db)
    .prepare(plan.text)
    .bind(...planValues(plan, values));
}

/** Rows of `.raw()` as objects named by the plan. */
export function named<T>(plan: Plan, rows: unknown[][]): T[] {
  return rows.map((values) => Object.fromEntries(plan.keys.map((k, i) => [k, values[i]])) as T);
}

/**
 * Rows of a batch (objects keyed by column name) named by the plan, by position: the plans' column
 * names are unique and never integer-like, so an object keeps the select's order. A write's rows
 * (its RETURNING) are kept as D1 names them.
 */
export function namedObjects<T>(plan: Plan, rows: Record<string, unknown>[]): T[] {
  // A write's RETURNING has no fields: D1 names its columns as its SQL does.
  if (!plan.keys.length) return rows as T[];
  return rows.map((row) => {
    const values = Object.values(row);
    if (values.length !== plan.keys.length) throw new Error("plan: a batch row lost columns (duplicate names?)");
    return Object.fromEntries(plan.keys.map((k, i) => [k, values[i]])) as T;
  });
}
