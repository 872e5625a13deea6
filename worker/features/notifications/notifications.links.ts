// Notifications: rows for like, reply, follow, note, renote and quote, and the unread counter
// (users.noti_num = notifications after users.noti_seen) moved in the same batch as the rows.
import { and, eq, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { follows, notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import { minusChanges, plus, plusChanges } from "../../db/counters";
import type { DB } from "../../env";
import { mutedBy } from "../safety/visibility";

export type Action = "like" | "reply" | "follow" | "note" | "renote" | "quote" | "mention";

/**
 * The unread badge of `who` (an id, or SQL that yields one), moved by the rows the statement just
 * before it changed; never the actor's own.
 */
const unreadBy = (db: DB, who: number | SQL, actorId: number, on: boolean) =>
  db
    .update(users)
    .set({ notiNum: on ? plusChanges(users.notiNum) : minusChanges(users.notiNum) })
    .where(and(eq(users.id, who), ne(users.id, actorId)));

/**
 * A notification row's columns for an INSERT … SELECT: one row for each `to` the SELECT yields
 * (one person, or every follower), about `n` (extra: the first 140 characters).
 */
const rowFor = (
  to: typeof users.id | typeof follows.followerId,
  n: { actorId: number; action: Action; tblname: string; rowid: number | SQL; extra: string },
) => ({
  id: sql<number>`null`.as("id"),
  userId: to,
  actorId: sql<number>`${n.actorId}`.as("actor_id"),
  action: sql<string>`${n.action}`.as("action"),
  tblname: sql<string>`${n.tblname}`.as("tblname"),
  rowid: sql<number>`${n.rowid}`.as("rowid"),
  extra: sql<string>`${n.extra.slice(0, 140)}`.as("extra"),
  createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
});

/**
 * Notify `userId` (an id, or SQL that yields one: a target's owner within a write's own batch) that
 * `actorId` did `action` on a row; nothing for oneself; a repeat is a no-op.
 */
export function notifyStatements(
  db: DB,
  n: { userId: number | SQL; actorId: number; action: Action; tblname?: string; rowid?: number | SQL; extra?: string },
): BatchItem<"sqlite">[] {
  if (n.userId === n.actorId) return [];
  return [
    // Nothing reaches someone who muted or blocked the actor (the badge recount sees no row either).
    db
      .insert(notifications)
      .select(
        db
          .select(rowFor(users.id, { ...n, tblname: n.tblname ?? "", rowid: n.rowid ?? 0, extra: n.extra ?? "" }))
          .from(users)
          .where(and(eq(users.id, n.userId), ne(users.id, n.actorId), sql`not ${mutedBy(users.id, n.actorId)}`)),
      )
      .onConflictDoNothing(),
    unreadBy(db, n.userId, n.actorId, true),
  ];
}

/**
 * A `mention` for each person a note or reply names (never oneself), once per note or reply: an
 * edit that keeps a mention inserts nothing, and the badge moves by the rows the insert changed.
 */
export function mentionStatements(
  db: DB,
  m: { actorId: number; tblname: "note" | "reply"; rowid: number; userIds: number[]; extra: string },
): BatchItem<"sqlite">[] {
  return m.userIds.flatMap((userId) => notifyStatements(db, { ...m, userId, action: "mention" }));
}

/** Undoing a like or follow takes its notification back. */
export function unnotifyStatements(
  db: DB,
  n: { userId: number | SQL; actorId: number; action: Action; tblname?: string; rowid?: number },
): BatchItem<"sqlite">[] {
  const row = and(
    eq(notifications.userId, n.userId),
    eq(notifications.actorId, n.actorId),
    eq(notifications.action, n.action),
    eq(notifications.tblname, n.tblname ?? ""),
    eq(notifications.rowid, n.rowid ?? 0),
  );
  // An unread one is deleted first so the badge drops by exactly that; a read one leaves it.
  const seen = sql`(select noti_seen from users where id = ${n.userId})`;
  return [
    db.delete(notifications).where(and(row, sql`${notifications.id} > ${seen}`)),
    unreadBy(db, n.userId, n.actorId, false),
    db.delete(notifications).where(row),
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
          .select(
            rowFor(follows.followerId, {
              actorId: n.actorId,
              action: "note",
              tblname: "note",
              rowid: n.noteId,
              extra: n.extra,
            }),
          )
          .from(follows)
          .where(and(eq(follows.followeeId, n.actorId), sql`not ${mutedBy(follows.followerId, n.actorId)}`)),
      )
      .onConflictDoNothing(),
    // The note is new, so every follower got exactly one new (unread: ids only grow) notification.
    db
      .update(users)
      .set({ notiNum: plus(users.notiNum, 1) })
      .where(sql`${users.id} in (${followers})`),
  ];
}

/**
 * Statements removing every notification about the `tblname` rows `ids` names (on delete), keeping
 * badges exact: each owner's badge drops by their unread rows among those about to go — the rows
 * the delete changes (notifications_target_idx), not the owner's whole list.
 */
function aboutDeletedStatements(db: DB, tblname: "note" | "reply", ids: SQL): BatchItem<"sqlite">[] {
  const about = sql`${notifications.tblname} = ${tblname} and ${notifications.rowid} in (${ids})`;
  const unread = sql`(select count(*) from notifications n where n.tblname = ${tblname} and n.rowid in (${ids}) and n.user_id = ${users.id} and n.id > ${users.notiSeen})`;
  return [
    db
      .update(users)
      .set({ notiNum: sql`${users.notiNum} - ${unread}` })
      .where(sql`${users.id} in (select user_id from notifications where ${about})`),
    db.delete(notifications).where(about),
  ];
}

/** Statements removing every notification about a note (on delete). */
export const noteDeletedStatements = (db: DB, noteId: number) => aboutDeletedStatements(db, "note", sql`${noteId}`);

/**
 * ... and about the replies `ids` selects (a deleted reply's subtree, a deleted note's replies), so
 * a deleted reply's text is not left readable in anyone's notifications (issue 20 §4).
 */
export const repliesDeletedStatements = (db: DB, ids: SQL) => aboutDeletedStatements(db, "reply", ids);
