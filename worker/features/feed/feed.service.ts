// The following feed (GET /v1/feeds): the notes and renotes of the people a reader follows and
// their own, newest first, without fan-out on write (a note costs O(1) rows whatever its author's
// follower count) and within a list's read budget (10 × page size + a constant) whatever the data.
// docs/decisions/005-following-feed.md explains the choice; tests/api/feed-cost.test.ts holds it.
//
// One statement, two plans chosen inside it by the reader's stored following count:
// - few followed (≤ MERGE_MAX): a k-way merge. A recursive CTE whose queue is a priority queue
//   (SQLite's ORDER BY on a recursive CTE) holds each author's newest note below the cursor; each
//   step takes the newest and puts back that author's next one (one index probe along
//   notes_user_id_idx). A page reads about 2 rows per followed person plus 3 per note shown,
//   however old or rare their notes are (3 quiet accounts among 1M notes).
// - many followed: a walk down the notes' id order from the cursor, keeping the followed authors'
//   rows (a follows primary-key lookup each), over a window of at most WINDOW notes. Someone who
//   follows many active people fills a page well inside it; when the window holds fewer than a
//   page, the page is short and its cursor is the window's end, so the next request goes on from
//   there (as search pages do): no request ever walks further than the window.
// The order is the notes' id (made in the worker, lib/ids.ts: it grows with its time, like
// Mastodon's and Misskey's time-ordered ids), so both plans share one cursor. The ids are sparse
// (milliseconds apart), so the window is a count of notes, not a span of ids.
import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { mapRead, type Read, readOne } from "../../db/reads";
import { notes } from "../../db/schema/notes";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { encodeCursor, PAGE_SIZE, startOf } from "../../lib/paging";
import { noteInList, noteItselfInList, personVisible } from "../safety/visibility";
import { type Hydrated, hydrated, type ListedRows, type RowExtra, toNoteJson } from "../notes/notes.json";

/** Up to this many followed people, the feed merges their notes; past it, it walks the id order. */
export const MERGE_MAX = 32;
/**
 * How many notes one request of the walk may pass (a page number alone adds its offset to it); the
 * window is read twice (the walk, and its end for the cursor), so twice it stays within the budget.
 */
export const WINDOW = 60;
/**
 * A page number without a cursor reaches page 2 here, not 5: a skipped row of the feed costs two
 * or three rows read (the merge's queue, the walk's follow and visibility lookups), not one.
 */
export const MAX_FEED_PAGE = 2;

const P = (name: string) => sql.placeholder(name);
const uid = P("uid");
const viewer = P("viewer");
const merging = sql`((select following_num from users where id = ${uid}) <= ${sql.raw(String(MERGE_MAX))})`;
// SQLite tests a constant condition on every row of a loop, not once before it: each plan's gate
// is put into its index range instead (a null bound finds nothing), so the plan not chosen reads
// no rows.
const mergeUid = sql`(case when ${merging} then ${uid} end)`;

/**
 * The id of `author`'s newest note below `from` that the reader may see in a list; reading upwards
 * (`up`), their oldest note above it, negated so that the merge's queue keeps one order (newest
 * first, nulls last) both ways.
 */
/** An imported post (its original elsewhere) is no news: the following feed leaves it to the profile. */
const notImported = (n: string) => sql`${sql.identifier(n)}.origin_url is null`;

const next = (author: SQL | Placeholder, from: SQL | Placeholder, up: boolean) =>
  up
    ? sql`(select -y.id from notes y where y.user_id = ${author} and y.id > ${from} and ${notImported("y")} and ${noteItselfInList(sql`y`, viewer)} order by y.id asc limit 1)`
    : sql`(select y.id from notes y where y.user_id = ${author} and y.id < ${from} and ${notImported("y")} and ${noteItselfInList(sql`y`, viewer)} order by y.id desc limit 1)`;

/**
 * The merge: the newest `take` ids of the reader and the people they follow, below the cursor
 * (upwards: the oldest above it). An author with nothing (more) to show enters the queue with a
 * null id, which sorts after every id and is dropped on the way out: cheaper than a join to leave
 * them out.
 */
const merged = (up: boolean) => sql`with recursive m(uid, id) as (
    select ${uid}, ${next(mergeUid, P("kid"), up)}
    union all
    select f.followee_id, ${next(sql`f.followee_id`, P("kid"), up)} from follows f
      where f.follower_id = ${mergeUid} and ${personVisible(sql`f.followee_id`, viewer, { mute: true })}
    union all
    select m.uid, ${next(sql`m.uid`, up ? sql`-m.id` : sql`m.id`, up)} from m where m.id is not null
    order by 2 desc limit ${P("take")}
  ) select ${up ? sql`-id` : sql`id`} as id from m where id is not null`;

/** The window: the WINDOW notes (plus a page number's offset) under the cursor; upwards, over it. */
const windowNotes = (up: boolean) =>
  sql`select * from notes where id ${up ? sql`>` : sql`<`} (case when not ${merging} then ${P("kid")} end)
    order by id ${up ? sql`asc` : sql`desc`} limit ${P("window")}`;

/**
 * The window's last id, when it is full (else the walk has reached the end): downwards its lowest,
 * where a short page's cursor points.
 */
const windowEdge = sql`(select case when count(*) = ${P("window")} then min(w.id) end from (${windowNotes(false)}) w)`;

/** The walk: followed (or own) visible notes of the window, newest first (upwards: oldest first). */
const walked = (up: boolean) => sql`select n.id from (${windowNotes(up)}) n
    where (n.user_id = ${uid} or exists(select 1 from follows f where f.follower_id = ${uid} and f.followee_id = n.user_id))
      and ${notImported("n")} and ${noteInList(sql`n`, viewer)}`;

/**
 * The page's ids, at most page size + 1 of them, and for the walk one more row, id null, carrying
 * the window's lowest id: where a short page's cursor points. Neither plan sorts: the merge's
 * rows leave its priority queue newest first and the walk reads the ids in order, so a page
 * number's offset skips rows as they come. Upwards (Mastodon's min_id: the page right above an
 * id) the same, oldest first, without the window row: a short page there is what is new.
 */
const candidates = (up: boolean) => sql`(
  select id, null as lo from (${merged(up)} limit ${P("limit")} offset ${P("offset")})
  union all
  select id, null from (${walked(up)} limit ${P("limit")} offset ${P("offset")})
  ${up ? sql`` : sql`union all select null, ${windowEdge} where not ${merging}`}
) as c`;

function feedPlan(db: DB, up: boolean, extra?: RowExtra) {
  return planOf(`feed${up ? "|up" : ""}${extra ? `|${extra.name}` : ""}`, () =>
    db
      .select({
        ...hydrated(viewer),
        lo: sql<number | null>`c.lo`.as("x_lo"),
        ...extra?.columns,
      })
      .from(candidates(up))
      .leftJoin(notes, sql`${notes.id} = c.id`)
      .leftJoin(users, eq(users.id, notes.userId)),
  );
}

type FeedRow = Hydrated & { lo: number | null };

/** One page of the reader's following feed: one statement (`size`: a client's own page size). */
export const feedRead = (db: DB, readerId: number, q: { page: number; cursor?: string }, size = PAGE_SIZE) =>
  mapRead(feedReadWith(db, readerId, q, size), (v) => v.list);

/** The feed's page with `extra`'s columns read on each of its rows (`rows`, in the notes' order). */
export function feedReadWith(
  db: DB,
  readerId: number,
  q: { page: number; cursor?: string; above?: number },
  size = PAGE_SIZE,
  extra?: RowExtra,
): Read<ListedRows> {
  const { after, offset } = startOf(q, MAX_FEED_PAGE);
  const up = q.above !== undefined;
  const plan = feedPlan(db, up, extra);
  const statement = bindPlan(db, plan, {
    uid: readerId,
    viewer: readerId,
    kid: q.above ?? after?.id ?? Number.MAX_SAFE_INTEGER,
    take: offset + size + 1,
    limit: size + 1,
    offset,
    window: WINDOW + offset,
  });
  return {
    statements: [statement],
    value: ([r]) => feedPage(namedObjects<FeedRow>(plan, r.results), readerId, q, size, up),
  };
}

export const listFeed = (...args: Parameters<typeof feedRead>) => readOne(args[0], feedRead(...args));

function feedPage(rows: FeedRow[], readerId: number, q: { page: number }, size: number, up: boolean): ListedRows {
  // A join keeps no order: the page's rows are sorted here (at most page size + 1 of them);
  // upwards the page is the oldest ones above, shown newest first.
  const hits = rows.filter((r) => r.id !== null).sort((a, b) => (up ? a.id - b.id : b.id - a.id));
  const low = rows.find((r) => r.id === null)?.lo ?? null;
  const items = hits.slice(0, size);
  if (up) items.reverse();
  const full = hits.length > size;
  // A short page of the walk goes on below its window while there are ids below it.
  const from = full ? items[items.length - 1].id : low;
  const list = {
    notes: items.map((r) => toNoteJson(r, readerId)),
    paginator: { page: q.page, is_end: from === null },
    cursor: from === null ? null : encodeCursor({ at: from, id: from }),
  };
  return { list, rows: items };
}
