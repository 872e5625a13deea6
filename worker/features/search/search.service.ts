import { eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { known, mapRead, type Read, readOne } from "../../db/reads";
import type { DB } from "../../env";
import { noteInList, personVisible, replyInList } from "../safety/visibility";
import { PAGE_SIZE } from "../../lib/paging";
import { type FolderJson, toJson as toFolderJson } from "../folders/folders.service";
import { RENOTE } from "../notes/notes.constants";
import { type Hydrated, hydrated, type RowExtra, toNoteJson } from "../notes/notes.json";
import { type ReplyJson, select as replySelect, toJson as toReplyJson } from "../replies/replies.service";
import type { NoteJson } from "../notes/notes.types";
import type { UserRef } from "../content/content";
import { highlight, type Snippet, snippet, type Terms } from "./search.highlight";
import { badCursor, decodeToken, encodeToken, isInt, P, viewerOf } from "./search.common";
import { suggestRead, type UserHit, usersRead, usersReadWith } from "./search.people";
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

/** The page's order again outside the subquery (a join keeps no order); a sort of page-size rows. */
const pageOrder = [sql`h.r`, sql`h.id desc`];

/**
 * Whether the viewer may see a ranked row (issue 16's rule: hidden content, suspended authors,
 * blocks either way, mutes), as a column: a page drops what it may not show after ranking, so the
 * window and the offsets into it stay the same for everyone and a page never walks further to
 * fill itself (it may show fewer than 20; More still follows).
 */
const visibleAs = (rule: SQL) => sql<number>`case when ${rule} then 1 else 0 end`.as("x_visible");
function notesPlan(db: DB, viewer: boolean, expand: boolean, extra?: RowExtra) {
  return planOf(`search:notes|${+viewer}|${+expand}${extra ? `|${extra.name}` : ""}`, () =>
    db
      .select({
        ...hydrated(viewerOf(viewer)),
        ...extra?.columns,
        top: topOfPage,
        visible: visibleAs(noteInList(sql`"notes"`, viewerOf(viewer), { mute: true }, sql`"users"`)),
      })
      .from(rankedIds("notes_fts", expand))
      .innerJoin(notes, sql`${notes.id} = h.id`)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(sql`${notes.kind} != ${RENOTE}`)
      .orderBy(...pageOrder),
  );
}

function repliesPlan(db: DB, viewer: boolean, expand: boolean) {
  return planOf(`search:replies|${+viewer}|${+expand}`, () =>
    replySelect(db, viewerOf(viewer), {
      top: topOfPage,
      visible: visibleAs(replyInList(sql`"replies"`, viewerOf(viewer), { mute: true }, sql`"users"`)),
    })
      .innerJoin(rankedIds("replies_fts", expand), sql`h.id = ${replies.id}`)
      .orderBy(...pageOrder),
  );
}

const FOLDER_COLUMNS = getTableColumns(folders);

function foldersPlan(db: DB, viewer: boolean, expand: boolean) {
  return planOf(`search:folders|${+viewer}|${+expand}`, () =>
    db
      .select({
        ...FOLDER_COLUMNS,
        username: users.username,
        fullname: users.fullname,
        avatar: users.avatar,
        top: topOfPage,
        visible: visibleAs(personVisible(sql`"folders".user_id`, viewerOf(viewer), { mute: true }, sql`"users"`)),
      })
      .from(rankedIds("folders_fts", expand))
      .innerJoin(folders, sql`${folders.id} = h.id`)
      .innerJoin(users, eq(users.id, folders.userId))
      .orderBy(...pageOrder),
  );
}

/** A ranked page, and its hits' rows as read (with any extra columns), in the same order. */
type RankedRows = { page: SearchResult & SearchPage; rows: Row[] };

/** One ranked page (notes, replies or folders): one statement; `extra`: more columns on a note's row. */
function rankedReadWith(
  db: DB,
  kind: "notes" | "replies" | "folders",
  terms: Terms,
  q: { page: number; cursor?: string },
  viewer: number | null,
  extra?: RowExtra,
): Read<RankedRows> {
  const { offset, anchor } = rankedStart(q);
  const limit = Math.min(PAGE_SIZE + 1, MAX_RANKED - offset);
  if (limit <= 0) return known({ page: emptyPage(kind, q.page), rows: [] });
  const match = matchPlan(terms);
  const expand = "last" in match;
  const plan =
    kind === "notes"
      ? notesPlan(db, !!viewer, expand, extra)
      : kind === "replies"
        ? repliesPlan(db, !!viewer, expand)
        : foldersPlan(db, !!viewer, expand);
  const values = { ...match, anchor, offset, limit, viewer };
  return {
    statements: [bindPlan(db, plan, values)],
    value: ([found]) => {
      const rows = namedObjects<Row>(plan, found.results);
      const isEnd = rows.length <= PAGE_SIZE;
      const top = rows[0]?.top ?? anchor;
      const shown = rows.slice(0, PAGE_SIZE).filter((r) => r.visible);
      const page = {
        ...hitsOf(kind, terms, viewer, shown),
        paginator: { page: q.page, is_end: isEnd },
        cursor: isEnd ? null : encodeToken([offset + PAGE_SIZE, Math.min(anchor, top)]),
      };
      return { page, rows: shown };
    },
  };
}

const emptyPage = (kind: SearchKind, page: number) =>
  ({ [kind]: [], paginator: { page, is_end: true }, cursor: null }) as never;

type Row = Record<string, unknown> & { top?: number; txt?: string; visible: number };

/** A ranked page's visible rows as hits of their kind, with their snippets. */
function hitsOf(
  kind: "notes" | "replies" | "folders",
  terms: Terms,
  viewer: number | null,
  items: Row[],
): SearchResult {
  const textSnippet = (text: string | undefined, size: number) => snippet(text ?? "", terms, size);
  if (kind === "notes")
    return {
      notes: items.map((r) => ({
        ...toNoteJson(r as unknown as Hydrated, viewer),
        snippet: textSnippet(r.txt, SNIPPET_TOKENS),
      })),
    };
  if (kind === "replies")
    return {
      replies: items.map((r) => ({ ...toReplyJson(r as never, viewer), snippet: textSnippet(r.txt, SNIPPET_TOKENS) })),
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
  };
}

/**
 * One page of one kind as a read (a page sends it in its own batch). A query with nothing to
 * search for is an empty page, never an error; a bad cursor refuses while the read is built.
 */
export function searchRead(
  db: DB,
  q: { q: string; t: SearchKind; page: number; cursor?: string; suggest?: boolean },
  viewer: number | null,
): Read<SearchResult & SearchPage> {
  const empty = known(emptyPage(q.t, q.page));
  if (q.t === "users") {
    const prefix = userPrefix(q.q);
    if (!prefix) return empty;
    return q.suggest ? suggestRead(db, prefix, viewer) : usersRead(db, prefix, q, viewer);
  }
  const terms = queryTerms(q.q);
  return terms ? mapRead(rankedReadWith(db, q.t, terms, q, viewer), (r) => r.page) : empty;
}

/**
 * A page of notes (`q.t` "notes") or people ("users") with `extra` columns on each hit's row, and
 * those rows in the hits' order: the Mastodon API reads what a status or an account shows on the
 * search's own rows, so its search is one batch.
 */
export function searchReadWith(
  db: DB,
  q: { q: string; t: "notes" | "users"; page: number },
  viewer: number | null,
  extra: RowExtra,
): Read<{ page: SearchResult & SearchPage; rows: Record<string, unknown>[] }> {
  const none = known({ page: emptyPage(q.t, q.page), rows: [] });
  if (q.t === "users") {
    const prefix = userPrefix(q.q);
    return prefix ? usersReadWith(db, prefix, q, viewer, extra) : none;
  }
  const terms = queryTerms(q.q);
  return terms ? rankedReadWith(db, "notes", terms, q, viewer, extra) : none;
}

/** GET /v1/search: the same read alone, one D1 round trip. */
export async function search(db: DB, q: Parameters<typeof searchRead>[1], viewer: number | null) {
  // Awaited here: workerd reports a rejected promise passed through un-awaited as unhandled.
  return await readOne(db, searchRead(db, q, viewer));
}
