import { sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { namedRead, type Read, readOne } from "../../db/reads";
import type { DB } from "../../env";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { replyInList } from "../safety/visibility";
import { type ReplyList, select, toJson } from "./replies.service";
import { answeringAt, type ReplyParent, specParent } from "./parent";

// A conversation as a tree (the note page, as Reddit's and Mastodon's web threads read): a page of
// direct replies, oldest first and keyset-paged, and under each the first replies to it, levels
// deep. What is deeper, or past the first few of a parent, is behind "show more" (the reply's own
// page). One statement, from indexes only: replies_parent_created_idx per parent, rows by id.

/** Levels a page shows: the direct replies and two levels under them. */
export const THREAD_DEPTH = 3;
/** Replies shown under one reply, oldest first; the rest are behind "N more replies". */
export const THREAD_CHILDREN = 3;

const P = (name: string) => sql.placeholder(name);

type Row = Parameters<typeof toJson>[0];

function threadPlans(db: DB, kind: ReplyParent["kind"], viewer: boolean) {
  const v = viewer ? P("viewer") : null;
  const listed = (alias: string) => replyInList(sql.raw(alias), v);
  // The first THREAD_CHILDREN visible replies of each reply in `level`, by the parent's index.
  const under = (level: string) =>
    sql`select c.id from ${sql.raw(level)} p join replies c on c.id in (select x.id from replies x where x.parent_reply_id = p.id and ${listed("x")} order by x.created_at, x.id limit ${sql.raw(String(THREAD_CHILDREN))})`;
  const tree = planOf(`replyThread|${kind}|${+viewer}`, () => {
    const top = sql`select id from replies t where ${answeringAt("t", kind, sql`${P("pid")}`)} and (t.created_at, t.id) > (${P("afterAt")}, ${P("afterId")}) and ${listed("t")} order by t.created_at, t.id limit ${P("limit")} offset ${P("offset")}`;
    const ids = sql`with l1 as (${top}), l2 as (${under("l1")}), l3 as (${under("l2")})
      select id from l1 union all select id from l2 union all select id from l3`;
    return select(db, v).where(sql`"replies"."id" in (${ids})`);
  });
  // A reply just written (`focus`) and the replies above it, so it shows under its parent even
  // when the parent already shows its first few (the reply is the newest) or sits on a later page.
  const focus = planOf(`replyThreadFocus|${+viewer}`, () => {
    const up = sql`with recursive up(id, parent, d) as (
      select id, parent_reply_id, 1 from replies where id = ${P("focus")}
      union all select r.id, r.parent_reply_id, up.d + 1 from replies r join up on r.id = up.parent where up.d < ${sql.raw(String(THREAD_DEPTH))})
      select id from up`;
    return select(db, v).where(sql`"replies"."id" in (${up}) and ${listed('"replies"')}`);
  });
  return { tree, focus };
}

/**
 * One page of a conversation under `parent` (a note or a reply): the direct
 * replies of the page in order, then the replies under them (and `focus`'s line, when asked),
 * flat: each names its parent, and a client nests them. Paged by the direct replies alone.
 */
export function threadRead(
  db: DB,
  parent: ReplyParent,
  q: { page: number; cursor?: string; focus?: number },
  viewer: number | null,
): Read<ReplyList> {
  const { after, offset } = startOf(q);
  const plans = threadPlans(db, parent.kind, !!viewer);
  const pid = parent.kind === "note" ? -parent.id : parent.id;
  const values = {
    pid: parent.id,
    afterAt: after?.at ?? -1,
    afterId: after?.id ?? 0,
    limit: PAGE_SIZE + 1,
    offset,
    viewer,
    focus: q.focus ?? 0,
  };
  // The focus's line only when one is asked for (absent, its result is too).
  const statements = {
    tree: bindPlan(db, plans.tree, values),
    ...(q.focus ? { focus: bindPlan(db, plans.focus, values) } : {}),
  } as Record<"tree" | "focus", D1PreparedStatement>;
  return namedRead(statements, (results) => {
    const rows = namedObjects<Row>(plans.tree, results.tree.results);
    const byTime = (a: Row, b: Row) => a.createdAt - b.createdAt || a.id - b.id;
    const page = pageOf(rows.filter((r) => specParent(r) === pid).sort(byTime), q.page, (r) => ({
      at: r.createdAt,
      id: r.id,
    }));
    // The page's direct replies and what hangs under them (the one past the page goes, with its own).
    const shown = new Set(page.items.map((r) => r.id));
    const out: Row[] = [...page.items];
    const rest = rows.filter((r) => specParent(r) !== pid).sort(byTime);
    const extra = results.focus ? namedObjects<Row>(plans.focus, results.focus.results) : [];
    // Parents come before their replies in time, so one pass in time order keeps whole branches. A
    // direct reply here is from the focus's line (the tree's own are the page's).
    for (const r of [...rest, ...extra].sort(byTime)) {
      if (shown.has(r.id) || (specParent(r) !== pid && !shown.has(specParent(r)))) continue;
      shown.add(r.id);
      out.push(r);
    }
    return {
      replies: out.map((r) => toJson(r, viewer)),
      paginator: page.paginator,
      cursor: page.cursor,
    };
  });
}

export const thread = (...args: Parameters<typeof threadRead>) => readOne(args[0], threadRead(...args));
