// Who is here and who is on another server: the one rule, as Mastodon's `accounts.domain IS NULL`.
// A person elsewhere is a `users` row with a `remote_actors` row (federation/remote.ts stores both
// in one batch); an account here never has one. In SQL every test of it is one of these, read
// along remote_actors' primary key; no join of its own decides it anywhere else (a join that
// reads a remote person's inbox or URI is a read of their address, not a test of where they are).
// For a row already read, handle.ts reads the same fact from the handle that batch gives them.
import { Column, getTableName, type Placeholder, type SQL, sql } from "drizzle-orm";

type Person = Column | SQL | Placeholder | number;

/**
 * A column always with its table's name: drizzle leaves it off in a one-table select, where inside
 * this subquery `"user_id"` would name remote_actors' own column.
 */
const qualified = (id: Person) =>
  id instanceof Column ? sql`${sql.identifier(getTableName(id.table))}.${sql.identifier(id.name)}` : id;

/** 1 when the person `id` names is on another server, 0 when they are here. */
export const isRemote = (id: Person): SQL<number> =>
  sql<number>`exists(select 1 from remote_actors where remote_actors.user_id = ${qualified(id)})`;

/** 1 when the person `id` names is here. */
export const isLocal = (id: Person): SQL<number> => sql<number>`not ${isRemote(id)}`;

/** The same rule for statements written over the raw D1 binding: `column` is the SQL naming the person's id. */
export const remoteSql = (column: string) =>
  `exists (select 1 from remote_actors where remote_actors.user_id = ${column})`;
export const localSql = (column: string) => `not ${remoteSql(column)}`;
