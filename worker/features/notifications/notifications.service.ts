import { and, desc, eq, inArray, sql } from "drizzle-orm";
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

/**
 * One page of the reader's notifications, newest first, with the unread count as it stands.
 * `actions`: only these kinds (a client's type filter, applied before the page is cut so pages stay
 * full); `size`: a client's own page size.
 */
export async function listNotifications(
  db: DB,
  reader: CurrentUser,
  q: { page: number; cursor?: string; actions?: readonly string[]; size?: number },
) {
  const size = q.size ?? PAGE_SIZE;
  const { after, offset } = startOf(q);
  const uid = reader.id;
  const rows = await db
    .select({
      n: notifications,
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
        q.actions ? inArray(notifications.action, q.actions.length ? [...q.actions] : [""]) : undefined,
        after ? sql`(${notifications.createdAt}, ${notifications.id}) < (${after.at}, ${after.id})` : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(size + 1)
    .offset(offset);
  const page = pageOf(rows, q.page, (r) => ({ at: r.n.createdAt, id: r.n.id }), size);
  return {
    notis: page.items.map(({ n, username, fullname, avatar, slug }) => ({
      id: n.id,
      action: n.action,
      tblname: n.tblname,
      rowid: n.rowid,
      extra: n.extra,
      // A moderation notice comes from the service, never from a named moderator.
      user: n.action.startsWith("mod_")
        ? { id: 0, username: "", fullname: "NoteX moderation", avatar: "", me: false }
        : { id: n.actorId, username, fullname, avatar, me: false },
      created_at: n.createdAt,
      href: href(n, username, rows[0]?.reader ?? "", slug),
    })),
    paginator: page.paginator,
    cursor: page.cursor,
    // null on an empty page (no row to carry it): the caller cannot tell, so it marks read.
    unread: rows[0]?.unread ?? null,
  };
}

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
