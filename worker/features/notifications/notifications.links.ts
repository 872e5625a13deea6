// Notifications: rows for like, reply, follow, note, renote and quote, and the unread counter
// (users.noti_num = notifications after users.noti_seen) recounted in the same batch as the rows.
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { follows, notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";

export type Action = "like" | "reply" | "follow" | "note" | "renote" | "quote";

const UNREAD = sql`(select count(*) from notifications n where n.user_id = users.id and n.id > users.noti_seen and n.tblname != '_gone')`;

/** Recounts the unread badge of the users a subquery (or one id) names. */
export const recountUnread = (db: DB, who: number | ReturnType<typeof sql>) =>
  db
    .update(users)
    .set({ notiNum: UNREAD })
    .where(typeof who === "number" ? eq(users.id, who) : sql`${users.id} in (${who})`);

/** Notify `userId` that `actorId` did `action` on a row; nothing for oneself; a repeat is a no-op. */
export function notifyStatements(
  db: DB,
  n: { userId: number; actorId: number; action: Action; tblname?: string; rowid?: number; extra?: string },
): BatchItem<"sqlite">[] {
  if (n.userId === n.actorId) return [];
  return [
    db
      .insert(notifications)
      .values({
        userId: n.userId,
        actorId: n.actorId,
        action: n.action,
        tblname: n.tblname ?? "",
        rowid: n.rowid ?? 0,
        extra: (n.extra ?? "").slice(0, 140),
      })
      .onConflictDoNothing(),
    recountUnread(db, n.userId),
  ];
}

/** Undoing a like or follow takes its notification back. */
export function unnotifyStatements(
  db: DB,
  n: { userId: number; actorId: number; action: Action; tblname?: string; rowid?: number },
): BatchItem<"sqlite">[] {
  return [
    db
      .delete(notifications)
      .where(
        and(
          eq(notifications.userId, n.userId),
          eq(notifications.actorId, n.actorId),
          eq(notifications.action, n.action),
          eq(notifications.tblname, n.tblname ?? ""),
          eq(notifications.rowid, n.rowid ?? 0),
        ),
      ),
    recountUnread(db, n.userId),
  ];
}

/**
 * Statements that notify every follower of `actorId` of a new note (action "note"), for the notes
 * service's db.batch when a note is created: one INSERT … SELECT however many followers.
 */
export function noteCreatedStatements(
  db: DB,
  n: { actorId: number; noteId: number; extra: string },
): BatchItem<"sqlite">[] {
  const followers = sql`select follower_id from follows where followee_id = ${n.actorId}`;
  return [
    db
      .insert(notifications)
      .select(
        db
          .select({
            id: sql<number>`null`.as("id"),
            userId: follows.followerId,
            actorId: sql<number>`${n.actorId}`.as("actor_id"),
            action: sql<string>`'note'`.as("action"),
            tblname: sql<string>`'note'`.as("tblname"),
            rowid: sql<number>`${n.noteId}`.as("rowid"),
            extra: sql<string>`${n.extra.slice(0, 140)}`.as("extra"),
            createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
          })
          .from(follows)
          .where(eq(follows.followeeId, n.actorId)),
      )
      .onConflictDoNothing(),
    recountUnread(db, followers),
  ];
}

/** Statements removing every notification about a note (on delete), keeping badges exact. */
export function noteDeletedStatements(db: DB, noteId: number): BatchItem<"sqlite">[] {
  // Mark, recount the marked rows' owners (the mark already excludes them), then delete.
  return [
    db
      .update(notifications)
      .set({ tblname: "_gone" })
      .where(and(eq(notifications.tblname, "note"), eq(notifications.rowid, noteId))),
    recountUnread(db, sql`select user_id from notifications where tblname = '_gone' and rowid = ${noteId}`),
    db.delete(notifications).where(and(eq(notifications.tblname, "_gone"), eq(notifications.rowid, noteId))),
  ];
}
