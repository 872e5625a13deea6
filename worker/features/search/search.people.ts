import { and, asc, type SQL, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import { bindPlan, namedObjects, type Plan, planOf } from "../../db/plan";
import { known, mapRead, type Read } from "../../db/reads";
import type { DB } from "../../env";
import { PAGE_SIZE } from "../../lib/paging";
import type { UserRef } from "../content/content";
import type { RowExtra } from "../notes/notes.json";
import { userInList } from "../safety/visibility";
import { badCursor, decodeToken, encodeToken, isInt, P, viewerOf } from "./search.common";

// People search (t=users) and the composer's @-mention suggestions: index ranges over usernames
// and names, then (search only) the words of names through users_fts, never a scan.

export type UserHit = UserRef & { descr: string };

const USER_FIELDS = {
  id: users.id,
  username: users.username,
  fullname: users.fullname,
  avatar: users.avatar,
  descr: users.descr,
};
const lowerUsername = sql`lower(${users.username})`;
const lowerName = sql`lower(${users.fullname})`;
const inRange = (key: SQL) => sql`${key} >= ${P("lo")} and ${key} < ${P("hi")}`;

/**
 * People whose username starts with the prefix (along users_username_uq), then those whose name
 * does and username does not (along users_fullname_idx), then those with a later word of the name
 * starting with each word typed ("love" finds Ada Lovelace; users_fts in id order): three index
 * reads in one batch, each in its index's order, so a page never sorts.
 */
function usersPlans(db: DB, viewer: boolean, extra?: RowExtra) {
  // Suspended people and anyone blocked either way are not found; muted people are (to unmute them).
  const listed = userInList(sql`"users"`, viewerOf(viewer));
  const fields = { ...USER_FIELDS, ...extra?.columns };
  const key = (phase: string) => `search:users|${phase}|${+viewer}${extra ? `|${extra.name}` : ""}`;
  const byUsername = planOf(key("username"), () =>
    db
      .select({ ...fields, key: sql<string>`${lowerUsername}`.as("x_key") })
      .from(users)
      .where(and(inRange(lowerUsername), sql`${lowerUsername} > ${P("after")}`, listed))
      .orderBy(asc(lowerUsername))
      .limit(P("limit")),
  );
  const byName = planOf(key("name"), () =>
    db
      .select({ ...fields, key: sql<string>`${lowerName}`.as("x_key") })
      .from(users)
      .where(
        and(
          inRange(lowerName),
          sql`(${lowerName}, ${users.id}) > (${P("after")}, ${P("afterId")})`,
          sql`not (${inRange(lowerUsername)})`,
          listed,
        ),
      )
      .orderBy(asc(lowerName), asc(users.id))
      .limit(P("limit")),
  );
  const byWords = planOf(key("words"), () =>
    db
      .select({ ...fields, key: sql<string>`''`.as("x_key") })
      .from(sql`"users_fts"`)
      .innerJoin(users, sql`${users.id} = "users_fts".rowid`)
      .where(
        and(
          sql`"users_fts" match ${P("words")}`,
          sql`"users_fts".rowid > ${P("afterId")}`,
          sql`not (${inRange(lowerUsername)})`,
          sql`not (${inRange(lowerName)})`,
          listed,
        ),
      )
      .orderBy(sql`"users_fts".rowid`)
      .limit(P("limit")),
  );
  return { byUsername, byName, byWords };
}

/**
 * The words of a people query as an FTS5 expression: every word, quoted, as a prefix of some word
 * of the name. Null when no word has a letter or digit (nothing a name's words could start with).
 */
export function nameWords(prefix: string): string | null {
  const words = prefix.split(" ").filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.length ? words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ") : null;
}

type UserRow = UserHit & { key: string };

type UsersPage = { users: UserHit[]; paginator: { page: number; is_end: boolean }; cursor: string | null };

/** One page of people search (t=users): the phases' reads, sent together (one round trip). */
export const usersRead = (db: DB, prefix: string, q: { page: number; cursor?: string }, viewer: number | null) =>
  mapRead(usersReadWith(db, prefix, q, viewer), (r) => r.page);

/** The same with `extra` columns on each person's row, and the page's rows in its order. */
export function usersReadWith(
  db: DB,
  prefix: string,
  q: { page: number; cursor?: string },
  viewer: number | null,
  extra?: RowExtra,
): Read<{ page: UsersPage; rows: Record<string, unknown>[] }> {
  // Cursor: [phase, key, id] of the last person shown (phase 0 usernames, 1 names, 2 name words).
  let at: [number, string, number] = [0, "", 0];
  if (q.cursor) {
    const v = decodeToken(q.cursor);
    if (!Array.isArray(v) || ![0, 1, 2].includes(v[0]) || typeof v[1] !== "string" || !isInt(v[2])) throw badCursor();
    at = v as [number, string, number];
  } else if (q.page > 1) {
    // Without a cursor only the first page is a real start; the spec's page numbers need the cursor.
    return known({ page: { users: [], paginator: { page: q.page, is_end: true }, cursor: null }, rows: [] });
  }
  const plans = usersPlans(db, !!viewer, extra);
  const bounds = { lo: prefix, hi: `${prefix}\u{10FFFF}`, limit: PAGE_SIZE + 1, viewer };
  const words = nameWords(prefix);
  // Each phase from where the cursor stands (its start for the later ones), in one batch.
  const phases = [
    { plan: plans.byUsername, values: { after: at[1] } },
    { plan: plans.byName, values: { after: at[0] === 1 ? at[1] : "", afterId: at[0] === 1 ? at[2] : 0 } },
    { plan: plans.byWords, values: { words, afterId: at[0] === 2 ? at[2] : 0 } },
  ]
    .map((p, phase) => ({ ...p, phase }))
    .filter((p) => p.phase >= at[0] && (p.phase < 2 || words));
  return {
    statements: phases.map((p) => bindPlan(db, p.plan, { ...bounds, ...p.values })),
    value: (results) => usersPage(phases, results, q.page, viewer),
  };
}

/** The phases' rows, in order, as one page of people and the cursor past its last one. */
function usersPage(
  phases: { plan: Plan; phase: number }[],
  results: D1Result<Record<string, unknown>>[],
  page: number,
  viewer: number | null,
) {
  const rows = phases.flatMap((p, i) =>
    namedObjects<UserRow>(p.plan, results[i].results).map((r) => ({ r, phase: p.phase })),
  );
  const items = rows.slice(0, PAGE_SIZE);
  const isEnd = rows.length <= PAGE_SIZE;
  const last = items[items.length - 1];
  const found = {
    users: items.map(({ r }) => ({
      id: r.id,
      username: r.username,
      fullname: r.fullname,
      avatar: r.avatar,
      descr: r.descr,
      me: r.id === viewer,
    })),
    paginator: { page, is_end: isEnd },
    cursor: isEnd || !last ? null : encodeToken([last.phase, last.r.key, last.r.id]),
  };
  return { page: found, rows: items.map(({ r }) => r as unknown as Record<string, unknown>) };
}

/** How many people the composer suggests for an @-mention, and how far along each index it looks. */
export const SUGGESTIONS = 8;
const SUGGEST_WINDOW = 40;

export type Suggestion = UserHit & { following: boolean };

/**
 * The composer's @-mention suggestions: the first SUGGEST_WINDOW people along each prefix range
 * (usernames, then names, as the users search reads them), the viewer not among them, ordered by
 * an exact username first, then people the viewer follows, then index order. Ranking inside two
 * bounded windows keeps a keystroke at about 2 × SUGGEST_WINDOW rows plus one follows probe each,
 * at any size: someone followed but past the window comes first once a letter more narrows the
 * range (walking all of a viewer's follows instead would cost a row per follow per keystroke).
 */
function suggestPlan(db: DB, viewer: boolean) {
  return planOf(`search:suggest|${+viewer}`, () => {
    const listed = userInList(sql`"users"`, viewerOf(viewer));
    const w = sql.raw(String(SUGGEST_WINDOW));
    const byUsername = sql`select id, 0 as phase, ${lowerUsername} as k from "users" where ${inRange(lowerUsername)} and ${listed} order by ${lowerUsername} limit ${w}`;
    const byName = sql`select id, 1 as phase, ${lowerName} as k from "users" where ${inRange(lowerName)} and not (${inRange(lowerUsername)}) and ${listed} order by ${lowerName}, "users"."id" limit ${w}`;
    const following = viewer
      ? sql<number>`exists(select 1 from follows f where f.follower_id = ${P("viewer")} and f.followee_id = "users"."id")`
      : sql<number>`0`;
    return db
      .select({ ...USER_FIELDS, following: following.as("x_following") })
      .from(sql`(select * from (${byUsername}) union all select * from (${byName})) as m`)
      .innerJoin(users, sql`${users.id} = m.id`)
      .where(viewer ? sql`${users.id} != ${P("viewer")}` : undefined)
      .orderBy(sql`(m.phase = 0 and m.k = ${P("lo")}) desc`, sql`x_following desc`, sql`m.phase`, sql`m.k`, users.id)
      .limit(SUGGESTIONS);
  });
}

/** The @-mention suggestions for `prefix` as a read. */
export function suggestRead(
  db: DB,
  prefix: string,
  viewer: number | null,
): Read<{ users: Suggestion[]; paginator: { page: number; is_end: boolean }; cursor: null }> {
  const plan = suggestPlan(db, !!viewer);
  return {
    statements: [bindPlan(db, plan, { lo: prefix, hi: `${prefix}\u{10FFFF}`, viewer })],
    value: ([found]) => {
      const rows = namedObjects<UserHit & { following: number }>(plan, found.results);
      const users: Suggestion[] = rows.map((r) => ({
        id: r.id,
        username: r.username,
        fullname: r.fullname,
        avatar: r.avatar,
        descr: r.descr,
        me: false,
        following: !!r.following,
      }));
      return { users, paginator: { page: 1, is_end: true }, cursor: null };
    },
  };
}
