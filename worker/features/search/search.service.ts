import { and, asc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import { bindPlan, d1Of, named, namedObjects, planOf } from "../../db/plan";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { type RideAlong, sessionColumn } from "../../lib/session";
import { noteInList, personVisible, replyInList, userInList } from "../safety/visibility";
import { PAGE_SIZE } from "../../lib/paging";
import { type FolderJson, toJson as toFolderJson } from "../folders/folders.service";
import { RENOTE } from "../notes/notes.constants";
import { type Hydrated, hydrated, toNoteJson } from "../notes/notes.json";
import { type ReplyJson, select as replySelect, toJson as toReplyJson } from "../replies/replies.service";
import type { NoteJson } from "../notes/notes.types";
import type { UserRef } from "../content/content";
import { highlight, type Snippet, snippet, type Terms } from "./search.highlight";
import { matchPlan, queryTerms, type SearchKind, userPrefix } from "./search.schema";

/**
 * A ranked search sorts only the newest MAX_RANKED matches (bm25, then newest first): the cost of
 * a page stays bounded however common a word is at 1M notes, and paging is an offset into that
 * fixed window (at most MAX_RANKED / PAGE_SIZE pages). The cursor also pins the highest id of the
 * first page's moment, so notes written while someone pages never shift the pages they read next.
 */
export const MAX_RANKED = 1000;

export type NoteHit = NoteJson & { snippet: Snippet };
export type ReplyHit = ReplyJson & { snippet: Snippet };
export type FolderHit = FolderJson & { user: UserRef; name_hl: Snippet; snippet: Snippet };
export type UserHit = UserRef & { descr: string };
export type { Snippet };

export type SearchResult =
  | { notes: NoteHit[] }
  | { replies: ReplyHit[] }
  | { folders: FolderHit[] }
  | { users: UserHit[] };

export interface SearchPage {
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
}

/** Tokens of text a note's and a folder description's snippet shows around its matches. */
const SNIPPET_TOKENS = 40;
const FOLDER_SNIPPET_TOKENS = 24;

const P = (name: string) => sql.placeholder(name);

// Cursors carry JSON (user keys are any text), base64url of its UTF-8.
function encodeToken(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function decodeToken(s: string): unknown {
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch {
    throw badCursor();
  }
}

const badCursor = () => new AppError(400, "bad_cursor", "The page cursor is not valid.");
const isInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** Where a ranked page starts: the offset into the window and the id ceiling it was first read under. */
function rankedStart(q: { page: number; cursor?: string }) {
  if (!q.cursor) return { offset: (q.page - 1) * PAGE_SIZE, anchor: Number.MAX_SAFE_INTEGER };
  const v = decodeToken(q.cursor);
  if (!Array.isArray(v) || !isInt(v[0]) || !isInt(v[1])) throw badCursor();
  return { offset: v[0], anchor: v[1] };
}

/** Completions of a long last word that a query names (see matchPlan). */
export const EXPANSIONS = 16;

type Fts = "notes_fts" | "replies_fts" | "folders_fts";

/**
 * The MATCH expression as SQL: bound as it is, or with the last word's completions read from the
 * table's fts5vocab term list (`<fts>_terms`), the word itself when none exists.
 */
function matchSql(fts: Fts, expand: boolean): SQL {
  if (!expand) return sql`${P("q")}`;
  const terms = sql.raw(`"${fts}_terms"`);
  const last = P("last");
  const completions = sql`select term from ${terms} where term >= ${last} and term < ${last} || char(1114111) limit ${sql.raw(String(EXPANSIONS))}`;
  return sql`${P("head")} || '(' || coalesce((select group_concat('"' || term || '"', ' OR ') from (${completions})), '"' || ${last} || '"') || ')'`;
}

/**
 * The ids of one ranked page as a subquery `h` (id, r, top): FTS5 walks the doclist newest first
 * for the MAX_RANKED newest matches up to the anchor (rank = bm25 per row), they are sorted by
 * bm25 then newest, and only the page's rows leave it. Everything else a hit shows is joined to
 * those rows alone, so a page reads about 2 × MAX_RANKED rows whatever the table holds. `top` is
 * the newest match, the anchor later pages keep (anything matching later has a higher id).
 */
function rankedIds(fts: Fts, expand: boolean): SQL {
  const t = sql.raw(`"${fts}"`);
  // A CTE named twice is computed once: the expression (and its term lookup) is built once.
  const match = sql`${t} match (select x from e) and rowid <= ${P("anchor")}`;
  const window = sql`select rowid as id, rank as r from ${t} where ${match} order by rowid desc limit ${sql.raw(String(MAX_RANKED))}`;
  const top = sql`(select rowid from ${t} where ${match} order by rowid desc limit 1)`;
  return sql`(with e(x) as (select ${matchSql(fts, expand)}) select id, r, ${top} as top from (${window}) order by r, id desc limit ${P("limit")} offset ${P("offset")}) as h`;
}

const topOfPage = sql<number>`h.top`.as("x_top");

/** A bearer read's session check as a column of the page's own statement (one round trip). */
const rideColumn = (ride: boolean): Record<string, SQL.Aliased<unknown>> =>
  ride ? { session: sessionColumn(P("ride_uid"), P("ride_sid")) } : {};

/** The session check alone, for a batch whose statements may all come back empty. */
function sessionPlan(db: DB) {
  return planOf("search:session", () =>
    db.select({ session: sessionColumn(P("ride_uid"), P("ride_sid")) }).from(sql`(select 1)`),
  );
}
const rideValues = (ride?: RideAlong) => ({ ride_uid: ride?.uid, ride_sid: ride?.sid });

/** The page's order again outside the subquery (a join keeps no order); a sort of page-size rows. */
const pageOrder = [sql`h.r`, sql`h.id desc`];

/**
 * Whether the viewer may see a ranked row (issue 16's rule: hidden content, suspended authors,
 * blocks either way, mutes), as a column: a page drops what it may not show after ranking, so the
 * window and the offsets into it stay the same for everyone and a page never walks further to
 * fill itself (it may show fewer than 20; More still follows).
 */
const visibleAs = (rule: SQL) => sql<number>`case when ${rule} then 1 else 0 end`.as("x_visible");
const viewerOf = (viewer: boolean) => (viewer ? P("viewer") : null);

function notesPlan(db: DB, viewer: boolean, expand: boolean, ride: boolean) {
  return planOf(`search:notes|${+viewer}|${+expand}|${+ride}`, () =>
    db
      .select({
        ...hydrated(viewerOf(viewer)),
        top: topOfPage,
        visible: visibleAs(noteInList(sql`"notes"`, viewerOf(viewer), { mute: true }, sql`"users"`)),
        ...rideColumn(ride),
      })
      .from(rankedIds("notes_fts", expand))
      .innerJoin(notes, sql`${notes.id} = h.id`)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(sql`${notes.kind} != ${RENOTE}`)
      .orderBy(...pageOrder),
  );
}

function repliesPlan(db: DB, viewer: boolean, expand: boolean, ride: boolean) {
  return planOf(`search:replies|${+viewer}|${+expand}|${+ride}`, () =>
    replySelect(db, viewerOf(viewer), {
      top: topOfPage,
      visible: visibleAs(replyInList(sql`"replies"`, viewerOf(viewer), { mute: true }, sql`"users"`)),
      ...rideColumn(ride),
    })
      .innerJoin(rankedIds("replies_fts", expand), sql`h.id = ${replies.id}`)
      .orderBy(...pageOrder),
  );
}

const FOLDER_COLUMNS = getTableColumns(folders);

function foldersPlan(db: DB, viewer: boolean, expand: boolean, ride: boolean) {
  return planOf(`search:folders|${+viewer}|${+expand}|${+ride}`, () =>
    db
      .select({
        ...FOLDER_COLUMNS,
        username: users.username,
        fullname: users.fullname,
        avatar: users.avatar,
        top: topOfPage,
        visible: visibleAs(personVisible(sql`"folders".user_id`, viewerOf(viewer), { mute: true }, sql`"users"`)),
        ...rideColumn(ride),
      })
      .from(rankedIds("folders_fts", expand))
      .innerJoin(folders, sql`${folders.id} = h.id`)
      .innerJoin(users, eq(users.id, folders.userId))
      .orderBy(...pageOrder),
  );
}

/** One ranked page (notes, replies or folders) in one D1 round trip. */
async function searchRanked(
  db: DB,
  kind: "notes" | "replies" | "folders",
  terms: Terms,
  q: { page: number; cursor?: string },
  viewer: number | null,
  ride?: RideAlong,
): Promise<SearchResult & SearchPage> {
  const { offset, anchor } = rankedStart(q);
  const limit = Math.min(PAGE_SIZE + 1, MAX_RANKED - offset);
  if (limit <= 0) return { [kind]: [], paginator: { page: q.page, is_end: true }, cursor: null } as never;
  const match = matchPlan(terms);
  const expand = "last" in match;
  const plan =
    kind === "notes"
      ? notesPlan(db, !!viewer, expand, !!ride)
      : kind === "replies"
        ? repliesPlan(db, !!viewer, expand, !!ride)
        : foldersPlan(db, !!viewer, expand, !!ride);
  const values = { ...match, anchor, offset, limit, viewer, ...rideValues(ride) };
  const raw = await bindPlan(db, plan, values).raw<unknown[]>();
  type Row = Record<string, unknown> & { top?: number; txt?: string; visible: number; session?: string | null };
  const rows = named<Row>(plan, raw);
  // Every ranked row carries the check; a query nothing matches leaves it to the middleware (a trip more).
  if (rows.length) ride?.settle(rows[0].session ?? null);
  const isEnd = rows.length <= PAGE_SIZE;
  const top = rows[0]?.top ?? anchor;
  const items = rows.slice(0, PAGE_SIZE).filter((r) => r.visible);
  const page = {
    paginator: { page: q.page, is_end: isEnd },
    cursor: isEnd ? null : encodeToken([offset + PAGE_SIZE, Math.min(anchor, top)]),
  };
  const textSnippet = (text: string | undefined, size: number) => snippet(text ?? "", terms, size);
  if (kind === "notes")
    return {
      notes: items.map((r) => ({
        ...toNoteJson(r as unknown as Hydrated, viewer),
        snippet: textSnippet(r.txt, SNIPPET_TOKENS),
      })),
      ...page,
    };
  if (kind === "replies")
    return {
      replies: items.map((r) => ({ ...toReplyJson(r as never, viewer), snippet: textSnippet(r.txt, SNIPPET_TOKENS) })),
      ...page,
    };
  return {
    folders: items.map((r) => {
      const f = r as unknown as typeof folders.$inferSelect & { username: string; fullname: string; avatar: string };
      return {
        ...toFolderJson(f),
        user: { id: f.userId, username: f.username, fullname: f.fullname, avatar: f.avatar, me: f.userId === viewer },
        name_hl: highlight(f.name, terms),
        snippet: snippet(f.descr ?? "", terms, FOLDER_SNIPPET_TOKENS),
      };
    }),
    ...page,
  };
}

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
 * does and username does not (along users_fullname_idx): two index ranges in one batch, each in
 * its index's order, so a page never sorts.
 */
function usersPlans(db: DB, viewer: boolean) {
  // Suspended people and anyone blocked either way are not found; muted people are (to unmute them).
  const listed = userInList(sql`"users"`, viewerOf(viewer));
  const byUsername = planOf(`search:users|username|${+viewer}`, () =>
    db
      .select({ ...USER_FIELDS, key: sql<string>`${lowerUsername}`.as("x_key") })
      .from(users)
      .where(and(inRange(lowerUsername), sql`${lowerUsername} > ${P("after")}`, listed))
      .orderBy(asc(lowerUsername))
      .limit(P("limit")),
  );
  const byName = planOf(`search:users|name|${+viewer}`, () =>
    db
      .select({ ...USER_FIELDS, key: sql<string>`${lowerName}`.as("x_key") })
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
  return { byUsername, byName };
}

type UserRow = UserHit & { key: string };

/**
 * People reads in one batch (one round trip), with a bearer read's session check as its first
 * statement: a page of no one still settles it without a trip more.
 */
async function withSession(db: DB, reads: D1PreparedStatement[], ride?: RideAlong): Promise<D1Result[]> {
  if (!ride) return reads.length === 1 ? [await reads[0].all()] : await d1Of(db).batch(reads);
  const check = sessionPlan(db);
  const [session, ...results] = await d1Of(db).batch([bindPlan(db, check, rideValues(ride)), ...reads]);
  ride.settle(
    namedObjects<{ session: string | null }>(check, session.results as Record<string, unknown>[])[0]?.session ?? null,
  );
  return results;
}

async function searchUsers(
  db: DB,
  prefix: string,
  q: { page: number; cursor?: string },
  viewer: number | null,
  ride?: RideAlong,
) {
  // Cursor: [phase, key, id] of the last person shown (phase 0 usernames, 1 names).
  let at: [number, string, number] = [0, "", 0];
  if (q.cursor) {
    const v = decodeToken(q.cursor);
    if (!Array.isArray(v) || (v[0] !== 0 && v[0] !== 1) || typeof v[1] !== "string" || !isInt(v[2])) throw badCursor();
    at = v as [number, string, number];
  } else if (q.page > 1) {
    // Without a cursor only the first page is a real start; the spec's page numbers need the cursor.
    return { users: [], paginator: { page: q.page, is_end: true }, cursor: null };
  }
  const { byUsername, byName } = usersPlans(db, !!viewer);
  const bounds = { lo: prefix, hi: `${prefix}\u{10FFFF}`, limit: PAGE_SIZE + 1, viewer };
  const reads =
    at[0] === 0
      ? [
          bindPlan(db, byUsername, { ...bounds, after: at[1] }),
          bindPlan(db, byName, { ...bounds, after: "", afterId: 0 }),
        ]
      : [bindPlan(db, byName, { ...bounds, after: at[1], afterId: at[2] })];
  const results = await withSession(db, reads, ride);
  const [u, n] = results.length === 2 ? results : [{ results: [] }, results[0]];
  const rows = [
    ...namedObjects<UserRow>(byUsername, u.results as Record<string, unknown>[]).map((r) => ({ r, phase: 0 })),
    ...namedObjects<UserRow>(byName, n.results as Record<string, unknown>[]).map((r) => ({ r, phase: 1 })),
  ];
  const items = rows.slice(0, PAGE_SIZE);
  const isEnd = rows.length <= PAGE_SIZE;
  const last = items[items.length - 1];
  return {
    users: items.map(({ r }) => ({
      id: r.id,
      username: r.username,
      fullname: r.fullname,
      avatar: r.avatar,
      descr: r.descr,
      me: r.id === viewer,
    })),
    paginator: { page: q.page, is_end: isEnd },
    cursor: isEnd || !last ? null : encodeToken([last.phase, last.r.key, last.r.id]),
  };
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

async function suggestPeople(db: DB, prefix: string, viewer: number | null, ride?: RideAlong) {
  const plan = suggestPlan(db, !!viewer);
  const [found] = await withSession(db, [bindPlan(db, plan, { lo: prefix, hi: `${prefix}\u{10FFFF}`, viewer })], ride);
  const rows = namedObjects<UserHit & { following: number }>(plan, found.results as Record<string, unknown>[]);
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
}

/** GET /v1/search: one page of one kind. A query with nothing to search for is an empty page, never an error. */
export async function search(
  db: DB,
  q: { q: string; t: SearchKind; page: number; cursor?: string; suggest?: boolean },
  viewer: number | null,
  ride?: RideAlong,
): Promise<SearchResult & SearchPage> {
  const empty = { [q.t]: [], paginator: { page: q.page, is_end: true }, cursor: null } as never;
  if (q.t === "users") {
    const prefix = userPrefix(q.q);
    // Awaited here: workerd reports a rejected promise passed through un-awaited as unhandled.
    if (!prefix) return empty;
    return q.suggest ? await suggestPeople(db, prefix, viewer, ride) : await searchUsers(db, prefix, q, viewer, ride);
  }
  const terms = queryTerms(q.q);
  return terms ? await searchRanked(db, q.t, terms, q, viewer, ride) : empty;
}
