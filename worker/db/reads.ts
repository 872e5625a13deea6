// Reads that go to D1 together. A read is its statements plus the function that turns their
// results into the value a caller wants; a page builds the reads it needs and sends them as one
// db.batch (`readTogether`), so its round trips are the batches written in its loader, and an API
// route runs the same read alone (`readOne`). The rules of what a read may see live in its
// statements, written once, in the feature's service.
import type { DB } from "../env";
import { AppError } from "../lib/errors";
import { type BuiltStatement, bindPlan, bindingOf, namedObjects, planFrom } from "./plan";

export interface Read<T> {
  statements: D1PreparedStatement[];
  /** The value, from the statements' results in order; throws an AppError when there is none to see. */
  value(results: D1Result<Record<string, unknown>>[]): T;
}

/** What a read gave: its value, or the AppError it refused with (not found, blocked…). */
export type Outcome<T> = { ok: true; data: T } | { ok: false; error: AppError };

/** A read whose value is known without D1 (a visitor's empty feed): no statement. */
export const known = <T>(value: T): Read<T> => ({ statements: [], value: () => value });

/** The same statements with their value changed by `f`. */
export const mapRead = <T, U>(r: Read<T>, f: (value: T) => U): Read<U> => ({
  statements: r.statements,
  value: (results) => f(r.value(results)),
});

/** Two reads as one: their statements in order, and both values (a refusal of either refuses both). */
export const pairOf = <A, B>(a: Read<A>, b: Read<B>): Read<[A, B]> => ({
  statements: [...a.statements, ...b.statements],
  value: (results) => [a.value(results.slice(0, a.statements.length)), b.value(results.slice(a.statements.length))],
});

/** A read of named statements: its value is made from their results by the same names. */
export function namedRead<K extends string, T>(
  statements: Record<K, D1PreparedStatement>,
  value: (results: Record<K, D1Result<Record<string, unknown>>>) => T,
): Read<T> {
  const names = Object.keys(statements) as K[];
  return {
    statements: names.map((k) => statements[k]),
    value: (results) =>
      value(Object.fromEntries(names.map((k, i) => [k, results[i]])) as Record<K, D1Result<Record<string, unknown>>>),
  };
}

/** A select's rows named by its fields, a RETURNING's by the names its SQL gives them. */
export type Rows = unknown[];

/** One named part of a drizzle batch: a statement, or a list of them whose rows nobody reads. */
type Part = BuiltStatement | readonly BuiltStatement[];

/** What each named part gave: a statement's rows, a list's rows per statement. */
export type RowsOf<P extends Record<string, Part>> = {
  [K in keyof P]: P[K] extends readonly BuiltStatement[] ? Rows[] : Rows;
};

/**
 * A Read of named statements built with drizzle (a write's batch, a select whose shape varies), each
 * bound as it was built and sent in the order the names are written. `value` gets each name's rows
 * (a write without RETURNING has none). A batch's SELECT sees the batch's own writes, so reads built
 * from plans may follow a write in the same batch.
 */
export function drizzleRead<P extends Record<string, Part>, T>(
  db: DB,
  parts: P,
  value: (rows: RowsOf<P>) => T,
): Read<T> {
  const names = Object.keys(parts);
  const lists = names.map((k) => {
    const part = parts[k];
    return (Array.isArray(part) ? part : [part]) as readonly BuiltStatement[];
  });
  const plans = lists.flat().map(planFrom);
  return {
    statements: plans.map((plan) => bindPlan(db, plan, {})),
    value: (results) => {
      const rows = results.map((r, i) => namedObjects<Record<string, unknown>>(plans[i], r.results));
      let at = 0;
      const byName = names.map((k, i) => {
        const part = rows.slice(at, at + lists[i].length);
        at += lists[i].length;
        return [k, Array.isArray(parts[k]) ? part : part[0]];
      });
      return value(Object.fromEntries(byName) as RowsOf<P>);
    },
  };
}

/** Each read's own slice of a batch's results, in the order its statements were sent. */
function slices(reads: Read<unknown>[], results: D1Result<Record<string, unknown>>[]) {
  let at = 0;
  return reads.map((r) => {
    const part = results.slice(at, at + r.statements.length);
    at += r.statements.length;
    return part;
  });
}

/** Reads of one kind as one: their statements in order, and their values in the same order. */
export function eachOf<T>(reads: Read<T>[]): Read<T[]> {
  return {
    statements: reads.flatMap((r) => r.statements),
    value: (results) => slices(reads, results).map((part, i) => reads[i].value(part)),
  };
}

/** Sends statements to D1: one all() for one, one batch for more, nothing for none. */
async function send(db: DB, statements: D1PreparedStatement[]): Promise<D1Result<Record<string, unknown>>[]> {
  if (!statements.length) return [];
  if (statements.length === 1) return [await statements[0].all()];
  return bindingOf(db).batch(statements);
}

/**
 * Named statements sent to a D1 binding as one batch (all or nothing), their results answered by
 * the same names: for a batch written in SQL rather than built as a Read.
 */
export async function batchNamed<K extends string>(
  d1: D1Database,
  statements: Record<K, D1PreparedStatement>,
): Promise<Record<K, D1Result<Record<string, unknown>>>> {
  const names = Object.keys(statements) as K[];
  const results = await d1.batch<Record<string, unknown>>(names.map((k) => statements[k]));
  return Object.fromEntries(names.map((k, i) => [k, results[i]])) as Record<K, D1Result<Record<string, unknown>>>;
}

/** One read on its own: one D1 round trip. */
export async function readOne<T>(db: DB, r: Read<T>): Promise<T> {
  return r.value(await send(db, r.statements));
}

type Outcomes<R> = { [K in keyof R]: Outcome<R[K] extends Read<infer T> ? T : never> };

/**
 * Several reads as one: their statements in order, and each one's value or refusal by name (a
 * refusal of one does not hide the others' values).
 */
export function allOf<R extends Record<string, Read<unknown>>>(reads: R): Read<Outcomes<R>> {
  const entries = Object.entries(reads);
  const parts = entries.map(([, r]) => r);
  return {
    statements: parts.flatMap((r) => r.statements),
    value: (results) => {
      const sliced = slices(parts, results);
      return Object.fromEntries(entries.map(([key, r], i) => [key, outcomeOf(r, sliced[i])])) as Outcomes<R>;
    },
  };
}

/** Every read of `reads` in one D1 round trip (one batch), each answering for itself. */
export const readTogether = <R extends Record<string, Read<unknown>>>(db: DB, reads: R) => readOne(db, allOf(reads));

function outcomeOf<T>(r: Read<T>, results: D1Result<Record<string, unknown>>[]): Outcome<T> {
  try {
    return { ok: true, data: r.value(results) };
  } catch (e) {
    if (e instanceof AppError) return { ok: false, error: e };
    throw e;
  }
}
