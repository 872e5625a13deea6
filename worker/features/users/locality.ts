// Who is here and who is on another server: the one rule, as Mastodon's `accounts.domain IS NULL`.
// A person elsewhere is a `users` row with a `remote_actors` row (federation/remote.ts stores both
// in one batch); an account here never has one. Every test of it is one of these, read along
// remote_actors' primary key: no username's "@", no join of its own decides it anywhere else.
import { Column, getTableName, type SQL, sql } from "drizzle-orm";

type Person = Column | SQL | number;

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
