import {
  type AnySQLiteColumn,
  type IndexBuilder,
  index,
  primaryKey,
  type SQLiteColumn,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
import { cascadeRef, counter, createdAt } from "./columns";

// The tables that come in families (the same columns under other names) are made here, so each
// family's keys and indexes are written once. drizzle-kit sees the same tables as before.

type Ref = ReturnType<typeof cascadeRef>;
/** A reference column: its name in TypeScript and in SQL, and the row it points at. */
interface RefColumn<K extends string> {
  key: K;
  column: string;
  to: () => AnySQLiteColumn;
}

/**
 * How many of an owner's rows carry each value of `key` (jslabel, jstype, a folder's labels): one
 * row per owner and value, moved by changed rows in the writes' own batches.
 */
export function tallyTable<N extends string, O extends string, K extends string>(name: N, owner: RefColumn<O>, key: K) {
  const columns = {
    [owner.key]: cascadeRef(owner.column, owner.to),
    [key]: text(key).notNull(),
    n: counter("n"),
  } as Record<O, Ref> & Record<K, ReturnType<typeof textKey<K>>> & { n: ReturnType<typeof counter> };
  return sqliteTable(name, columns, (t) => {
    const cols = t as unknown as Record<O | K, SQLiteColumn>;
    return [primaryKey({ columns: [cols[owner.key], cols[key]] })];
  });
}
const textKey = <K extends string>(key: K) => text(key).notNull();

/**
 * One person's relation to another (follows, blocks, mutes): the pair is the key, and the person's
 * own list pages newest first along (from, created_at, to). `reverse` indexes the other direction,
 * as each relation needs it.
 */
export function userPairTable<N extends string, F extends string, T extends string>(
  name: N,
  from: RefColumn<F>,
  to: RefColumn<T>,
  reverse: (c: { from: SQLiteColumn; to: SQLiteColumn; createdAt: SQLiteColumn }) => IndexBuilder,
) {
  const columns = {
    [from.key]: cascadeRef(from.column, from.to),
    [to.key]: cascadeRef(to.column, to.to),
    createdAt: createdAt(),
  } as Record<F | T, Ref> & { createdAt: ReturnType<typeof createdAt> };
  return sqliteTable(name, columns, (t) => {
    const c = { ...(t as unknown as Record<F | T, SQLiteColumn>), createdAt: t.createdAt as SQLiteColumn };
    return [
      primaryKey({ columns: [c[from.key], c[to.key]] }),
      index(`${name}_${from.column.replace(/_id$/, "")}_created_idx`).on(c[from.key], c.createdAt, c[to.key]),
      reverse({ from: c[from.key], to: c[to.key], createdAt: c.createdAt }),
    ];
  });
}
