import { and, asc, desc, eq, getTableColumns, inArray, or, sql } from "drizzle-orm";
import { bindingOf, bindPlan, namedObjects, planOf } from "../../db/plan";
import { mapRead, type Read, readOne } from "../../db/reads";
import { z } from "zod";
import { notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { CurrentUser, DB } from "../../env";
import { userSegment } from "../../lib/links";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { ListQuery, orElse } from "../../lib/params";
import type { RowExtra } from "../notes/notes.json";
import { noticeVisible } from "../safety/visibility";
import { COUNTED } from "../interactions/counted";

/**
 * Where a notification leads: the note, reply or x-folder it is about (`slug`: the folder's, when
 * it is about one), or the actor's profile.
 */
function href(
  n: { action: string; tblname: string; targetId: number },
  actorName: string,
  ownerName: string,
  slug: string | null,
): string {
  const actor = userSegment(actorName);
  const owner = userSegment(ownerName);
  // A move leads to the old profile, which says where the person went.
  if (n.action === "follow" || n.action === "move") return `/${actor}`;
  // An import's end (imports/jobs.consumer.ts) leads to its progress page.
  if (n.action === "import") return `/settings/import/jobs/${n.targetId}`;
  if (n.tblname === "folder") return slug === null ? `/${owner}` : `/${owner}/x/${encodeURIComponent(slug)}`;
  if (n.action.startsWith("mod_"))
    return n.tblname === "note" || n.tblname === "reply"
      ? `/${owner}/${n.tblname === "note" ? "note" : "rep"}/${n.targetId}`
      : `/${owner}`;
  // A reply, a new note, a quote and a mention point at the actor's own row.
  const own = n.action === "reply" || n.action === "mention";
  if (n.tblname === "reply") return own ? `/${actor}/rep/${n.targetId}` : `/${owner}/rep/${n.targetId}`;
  if (n.action === "note" || n.action === "quote" || n.action === "mention") return `/${actor}/note/${n.targetId}`;
  return `/${owner}/note/${n.targetId}`;
}

/**
 * What people said to or about the reader's words: mentions, replies and quotes (the Mentions
 * tab, as Mastodon's and Bluesky's). The same terms as the partial index
 * notifications_user_mentions_idx, so SQLite reads that index for the tab.
 */
export const MENTION_ACTIONS = sql`${notifications.action} in ('mention', 'reply', 'quote')`;

export const NotificationsQuery = ListQuery.extend({ t: orElse(z.enum(["all", "mentions"]).optional(), undefined) });

/** The opening words of a text for a notice ("liked your note “first words…”"), cut at a word. */
export function firstWords(text: string | null, max = 60): string {
  const t = (text ?? "").replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?]+$/, "")}…`;
}

/** The text (or folder name) a counted interaction is about, by primary key: what the notice names. */
const subjectOf = sql<string | null>`case when ${inArray(
  notifications.action,
  COUNTED.map((k) => k.name),
)} then
  case ${notifications.tblname}
    when 'note' then (select substr(txt, 1, 200) from notes where id = ${notifications.targetId})
    when 'reply' then (select substr(txt, 1, 200) from replies where id = ${notifications.targetId})
    when 'folder' then (select name from folders where id = ${notifications.targetId})
  end end`;

const P = (name: string) => sql.placeholder(name);

/**
 * Where a page starts: at the top, below a cursor's (time, id), or below or at a notice given by
 * id alone (a Mastodon max_id, or one notice), its time looked up by the statement itself.
 */
type Start = "top" | "cursor" | "below" | "at" | "above";

/**
 * A page's shape: the Mentions tab or all, where it starts, how many kinds a client's filter names,
 * and whether notices about x-folders are in (an app has no status to show for one).
 */
interface Shape {
  mentions: boolean;
  start: Start;
  actions: number | null;
  folders: boolean;
}

const uid = P("uid");

/** The reader's own visible notices of a shape, every value a placeholder. */
function noticesWhere({ mentions, start, actions, folders }: Shape) {
  const at = sql`(select k.created_at from notifications k where k.id = ${P("id")} and k.user_id = ${uid})`;
  return and(
    sql`${notifications.userId} = ${uid}`,
    mentions ? MENTION_ACTIONS : undefined,
    folders ? undefined : sql`${notifications.tblname} != 'folder'`,
    // Hidden content and suspended people leave the list while they are removed (not deleted:
    // restoring brings them back). The unread badge may still count them until the list is read.
    noticeVisible(sql`"notifications"`, uid, sql`"users"`),
    actions === null
      ? undefined
      : inArray(
          notifications.action,
          Array.from({ length: actions }, (_, i) => P(`a${i}`)),
        ),
    start === "cursor"
      ? sql`(${notifications.createdAt}, ${notifications.id}) < (${P("at")}, ${P("id")})`
      : start === "below"
        ? sql`(${notifications.createdAt}, ${notifications.id}) < (${at}, ${P("id")})`
        : start === "at"
          ? sql`(${notifications.createdAt}, ${notifications.id}) <= (${at}, ${P("id")})`
          : start === "above"
            ? sql`(${notifications.createdAt}, ${notifications.id}) > (${at}, ${P("id")})`
            : undefined,
  );
}

/** A page of a shape with `fields`, newest first; `above` reads upwards, oldest first (the caller turns it). */
const noticesPage = (db: DB, shape: Shape, fields: Record<string, unknown>) =>
  db
    .select(fields as { id: typeof notifications.id })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.actorId))
    .where(noticesWhere(shape))
    .orderBy(
      ...(shape.start === "above"
        ? [asc(notifications.createdAt), asc(notifications.id)]
        : [desc(notifications.createdAt), desc(notifications.id)]),
    )
    .limit(P("limit"))
    .offset(P("offset"));

/**
 * The statement of a notifications page, built once per shape, with any `extra` columns a caller
 * reads on the same rows (over `notifications` and the actor's `users`).
 */
function noticesPlan(db: DB, shape: Shape, extra?: RowExtra) {
  const key = `notices|${+shape.mentions}|${shape.start}|${shape.actions ?? "-"}|${+shape.folders}${extra ? `|${extra.name}` : ""}`;
  return planOf(key, () =>
    noticesPage(db, shape, {
      ...getTableColumns(notifications),
      username: users.username,
      fullname: users.fullname,
      avatar: users.avatar,
      // The reader's own name, for the hrefs of notices about their content.
      reader: sql<string>`(select username from users where id = ${uid})`.as("x_reader"),
      // Newer than what the reader last saw (users.noti_seen: the newest id when the list was read).
      unread: sql<number>`${notifications.id} > (select noti_seen from users where id = ${uid})`.as("x_new"),
      subject: subjectOf.as("x_subject"),
      // Only for a follow: whether the reader follows them already (the follows primary key).
      following:
        sql<number>`case when ${notifications.action} = 'follow' then exists(select 1 from follows f where f.follower_id = ${uid} and f.followee_id = ${notifications.actorId}) end`.as(
          "x_following",
        ),
      // Read by primary key, and only for a notification about an x-folder (folders are the reader's own).
      slug: sql<
        string | null
      >`case when ${notifications.tblname} = 'folder' then (select slug from folders where id = ${notifications.targetId}) end`.as(
        "x_slug",
      ),
      ...extra?.columns,
    }),
  );
}

/**
 * One page of the reader's notifications (all, or the Mentions tab), newest first; each one says
 * whether it is unread (newer than the last time the list was read), and a follow whether the
 * reader follows back.
 * `actions`: only these kinds (a client's type filter, applied before the page is cut so pages stay
 * full); `size`: a client's own page size.
 */
export const notificationsRead = (db: DB, uid: number, q: NoticesQuery) =>
  mapRead(notificationsReadWith(db, uid, q).read, (v) => v.list);

type NoticesQuery = {
  page: number;
  cursor?: string;
  t?: "all" | "mentions";
  actions?: readonly string[];
  size?: number;
  /** Leave out notices about x-folders (Mastodon apps: no status to show), in the query so pages stay full. */
  noFolders?: boolean;
  /**
   * A notice's id the page starts below (`below`) or at (`at`), instead of a cursor; or the page
   * right above it (`above`: Mastodon's min_id), still answered newest first.
   */
  from?: { id: number; start: "below" | "at" | "above" };
};

/**
 * The page's read with `extra`'s columns on its rows (`rows`, in the notices' order), and
 * `about(kind)`: the ids of the notes or replies its notices are about, as a subquery over the same
 * page (bound with `values`), so a caller reads them in the same batch.
 */
export function notificationsReadWith(db: DB, uid: number, q: NoticesQuery, extra?: RowExtra) {
  const size = q.size ?? PAGE_SIZE;
  const { after, offset } = startOf(q);
  // A client's filter that keeps no kind matches nothing (no action is "").
  const actions = q.actions && (q.actions.length ? q.actions : [""]);
  const shape: Shape = {
    mentions: q.t === "mentions",
    start: q.from?.start ?? (after ? "cursor" : "top"),
    actions: actions?.length ?? null,
    folders: !q.noFolders,
  };
  const plan = noticesPlan(db, shape, extra);
  const values: Record<string, unknown> = {
    uid,
    at: after?.at,
    id: q.from?.id ?? after?.id,
    limit: size + 1,
    offset,
  };
  actions?.forEach((action, i) => {
    values[`a${i}`] = action;
  });
  const about = (kind: "note" | "reply") =>
    sql`(select p.target_id from (${noticesPage(db, shape, { tblname: notifications.tblname, targetId: notifications.targetId })}) p where p.tblname = ${kind})`;
  const read: Read<{ list: NoticeList; rows: Record<string, unknown>[] }> = {
    statements: [bindPlan(db, plan, values)],
    value: ([r]) => {
      const rows = namedObjects<NoticeRow>(plan, r.results);
      const page = pageOf(rows, q.page, (n) => ({ at: n.createdAt, id: n.id }), size);
      if (shape.start === "above") page.items.reverse();
      const list = {
        notis: page.items.map((n) => ({
          id: n.id,
          action: n.action,
          tblname: n.tblname,
          rowid: n.targetId,
          extra: n.extra,
          // A moderation notice comes from the service, never from a named moderator.
          user: n.action.startsWith("mod_")
            ? { id: 0, username: "", fullname: "NoteX moderation", avatar: "", me: false }
            : { id: n.actorId, username: n.username, fullname: n.fullname, avatar: n.avatar, me: false },
          created_at: n.createdAt,
          unread: !!n.unread,
          // What a counted interaction is about, in its opening words ("" for an image-only note).
          subject: n.subject === null ? null : firstWords(n.subject),
          ...(n.action === "follow" ? { following: !!n.following } : {}),
          href: href(n, n.username, rows[0]?.reader ?? "", n.slug),
        })),
        paginator: page.paginator,
        cursor: page.cursor,
      };
      return { list, rows: page.items };
    },
  };
  return { read, about, values };
}

type NoticeRow = typeof notifications.$inferSelect & {
  username: string;
  fullname: string;
  avatar: string;
  reader: string;
  unread: number;
  subject: string | null;
  following: number | null;
  slug: string | null;
};

interface NoticeList {
  notis: {
    id: number;
    action: string;
    tblname: string;
    rowid: number;
    extra: string;
    user: { id: number; username: string; fullname: string; avatar: string; me: boolean };
    created_at: number;
    unread: boolean;
    subject: string | null;
    following?: boolean;
    href: string;
  }[];
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
}

export const listNotifications = (db: DB, reader: CurrentUser, q: Parameters<typeof notificationsRead>[2]) =>
  readOne(db, notificationsRead(db, reader.id, q));

/**
 * The one rule for "read up to here", for every door: the page's list read to the top (spec 2:
 * opening the list resets the unread count to 0) marks up to the reader's newest notice; a
 * Mastodon app's marker names the notice itself. The last read notice (users.noti_seen) only moves
 * forward; the badge (users.noti_num: notices after noti_seen, kept by triggers on the rows) is
 * never recounted: a mark at or past the newest notice is 0, one below it leaves the badge as it is
 * until the list is read to the top. O(1): the newest notice is the first entry of the
 * (user_id, created_at, id) index. Nothing is written when nothing would change.
 */
export function markReadUpTo(db: DB, uid: number, upTo?: number): D1PreparedStatement {
  const newest = sql`coalesce((select n.id from ${notifications} n where n.user_id = ${uid} order by n.created_at desc, n.id desc limit 1), 0)`;
  const mark = upTo === undefined ? newest : sql`${upTo}`;
  const { sql: text, params } = db
    .update(users)
    .set({
      notiSeen: sql`max(${users.notiSeen}, ${mark})`,
      notiNum: sql`case when ${mark} >= ${newest} then 0 else ${users.notiNum} end`,
    })
    .where(and(eq(users.id, uid), or(sql`${users.notiNum} != 0`, sql`${users.notiSeen} < ${mark}`)))
    .toSQL();
  return bindingOf(db)
    .prepare(text)
    .bind(...params);
}

export async function markRead(db: DB, uid: number) {
  await markReadUpTo(db, uid).run();
  return { noti: 0 };
}

/**
 * The list as its reader opens it (the page): one page of notices, then the unread count reset,
 * in one batch. A batch runs its statements in order, so the page still shows which were unread.
 */
export function openedNotificationsRead(db: DB, uid: number, q: Parameters<typeof notificationsRead>[2]) {
  const list = notificationsRead(db, uid, q);
  return { statements: [...list.statements, markReadUpTo(db, uid)], value: list.value };
}
