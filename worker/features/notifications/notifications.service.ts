import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { readOne } from "../../db/reads";
import { notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { CurrentUser, DB } from "../../env";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { noticeVisible } from "../safety/visibility";

/**
 * Where a notification leads: the note, reply or x-folder it is about (`slug`: the folder's, when
 * it is about one), or the actor's profile.
 */
function href(
  n: { action: string; tblname: string; rowid: number },
  actor: string,
  owner: string,
  slug: string | null,
): string {
  if (n.action === "follow") return `/${actor}`;
  if (n.tblname === "folder") return slug === null ? `/${owner}` : `/${owner}/x/${encodeURIComponent(slug)}`;
  if (n.action.startsWith("mod_"))
    return n.tblname === "note" || n.tblname === "reply"
      ? `/${owner}/${n.tblname === "note" ? "note" : "rep"}/${n.rowid}`
      : `/${owner}`;
  // A reply, a new note, a quote and a mention point at the actor's own row.
  const own = n.action === "reply" || n.action === "mention";
  if (n.tblname === "reply") return own ? `/${actor}/rep/${n.rowid}` : `/${owner}/rep/${n.rowid}`;
  if (n.action === "note" || n.action === "quote" || n.action === "mention") return `/${actor}/note/${n.rowid}`;
  return `/${owner}/note/${n.rowid}`;
}

type NoticeRow = typeof notifications.$inferSelect & {
  username: string;
  fullname: string;
  avatar: string;
  unread: number;
  reader: string;
  slug: string | null;
};

/** One page of the reader's notifications, newest first, with the unread count as it stands. */
export function notificationsRead(db: DB, uid: number, q: { page: number; cursor?: string }) {
  const { after, offset } = startOf(q);
  const plan = planFrom(
    db
      .select({
        ...getTableColumns(notifications),
        username: users.username,
        fullname: users.fullname,
        avatar: users.avatar,
        // The unread count as it stands (one row, read once for the statement), so the page
        // marks the list read only when something is unread: a write on every visit otherwise.
        unread: sql<number>`(select noti_num from users where id = ${uid})`.as("x_unread"),
        // The reader's own name, for the hrefs of notices about their content.
        reader: sql<string>`(select username from users where id = ${uid})`.as("x_reader"),
        // Read by primary key, and only for a notification about an x-folder (folders are the reader's own).
        slug: sql<
          string | null
        >`case when ${notifications.tblname} = 'folder' then (select slug from folders where id = ${notifications.rowid}) end`.as(
          "x_slug",
        ),
      })
      .from(notifications)
      .innerJoin(users, eq(users.id, notifications.actorId))
      .where(
        and(
          eq(notifications.userId, uid),
          sql`${notifications.tblname} != '_gone'`,
          // Hidden content and suspended people leave the list while they are removed (not deleted:
          // restoring brings them back). The unread badge may still count them until the list is read.
          noticeVisible(sql`"notifications"`, uid, sql`"users"`),
          after ? sql`(${notifications.createdAt}, ${notifications.id}) < (${after.at}, ${after.id})` : undefined,
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(PAGE_SIZE + 1)
      .offset(offset),
  );
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]: D1Result<Record<string, unknown>>[]) => {
      const rows = namedObjects<NoticeRow>(plan, r.results);
      const page = pageOf(rows, q.page, (n) => ({ at: n.createdAt, id: n.id }));
      return {
        notis: page.items.map((n) => ({
          id: n.id,
          action: n.action,
          tblname: n.tblname,
          rowid: n.rowid,
          extra: n.extra,
          // A moderation notice comes from the service, never from a named moderator.
          user: n.action.startsWith("mod_")
            ? { id: 0, username: "", fullname: "NoteX moderation", avatar: "", me: false }
            : { id: n.actorId, username: n.username, fullname: n.fullname, avatar: n.avatar, me: false },
          created_at: n.createdAt,
          href: href(n, n.username, rows[0]?.reader ?? "", n.slug),
        })),
        paginator: page.paginator,
        cursor: page.cursor,
        // null on an empty page (no row to carry it): the caller cannot tell, so it marks read.
        unread: rows[0]?.unread ?? null,
      };
    },
  };
}

export const listNotifications = (db: DB, reader: CurrentUser, q: { page: number; cursor?: string }) =>
  readOne(db, notificationsRead(db, reader.id, q));

/** Spec 2: opening the list resets the unread count to 0 once it has loaded. */
export async function markRead(db: DB, uid: number) {
  await db
    .update(users)
    // Ids only grow (autoincrement), so the newest id of all is past every one of the user's, in
    // O(1) on the primary key instead of a walk through the user's whole list.
    .set({ notiSeen: sql`(select coalesce(max(id), 0) from notifications)`, notiNum: 0 })
    // Nothing unread, nothing to write (every new notice moves noti_num up).
    .where(and(eq(users.id, uid), sql`${users.notiNum} != 0`));
  return { noti: 0 };
}
