// Notifications: rows for each counted interaction (interactions/counted.ts: a like, a renote),
// reply, follow, note, quote, mention, move and import. The unread counter
// (users.noti_num = notifications after users.noti_seen) follows the rows by the triggers
// notifications_unread_in and _out, and rows about a note, reply or x-folder go with it by their
// foreign keys.
import { and, eq, ne, type Placeholder, type SQL, sql } from "drizzle-orm";
import { follows, notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { Statement } from "../../db/plan";
import type { DB } from "../../env";
import type { CountedName } from "../interactions/counted";
import { domainBlockedBy, mutedBy } from "../safety/visibility";

export type Action = CountedName | "reply" | "follow" | "note" | "quote" | "mention" | "move" | "import";

/** An id: a value, or a placeholder of a statement built once (db/plan.ts). */
type Id = number | Placeholder;

/** A statement for a write's batch, whose SQL can also be kept as a plan (db/plan.ts). */

/**
 * A notification row's columns for an INSERT … SELECT: one row for each `to` the SELECT yields
 * (one person, or every follower), about `n` (extra: the first 140 characters). Every column the
 * insert writes, in the table's order; the SELECT goes in as SQL (getSQL) because drizzle's check
 * of a builder's fields also counts the derived columns, which SQLite computes and no insert names.
 */
const rowFor = (
  to: typeof users.id | typeof follows.followerId,
  n: { actorId: Id; action: Action; tblname: string; targetId: Id | SQL; extra: string },
) => ({
  id: sql<number>`null`.as("id"),
  userId: to,
  actorId: sql<number>`${n.actorId}`.as("actor_id"),
  action: sql<string>`${n.action}`.as("action"),
  tblname: sql<string>`${n.tblname}`.as("tblname"),
  targetId: sql<number>`${n.targetId}`.as("target_id"),
  extra: sql<string>`${n.extra.slice(0, 140)}`.as("extra"),
  createdAt: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`.as("created_at"),
});

/**
 * Notify `userId` (an id, or SQL that yields one: a target's owner within a write's own batch) that
 * `actorId` did `action` on a row; nothing for oneself; a repeat is a no-op. `when`: the write's own
 * guard (its batch then notifies only when the write was allowed).
 */
export function notifyStatements(
  db: DB,
  n: {
    userId: Id | SQL;
    actorId: Id;
    action: Action;
    tblname?: string;
    targetId?: Id | SQL;
    extra?: string;
    when?: SQL;
  },
): Statement[] {
  if (n.userId === n.actorId) return [];
  return [
    // Nothing reaches someone who muted or blocked the actor, or blocked their server (the badge
    // recount sees no row either).
    db
      .insert(notifications)
      .select(
        db
          .select(rowFor(users.id, { ...n, tblname: n.tblname ?? "", targetId: n.targetId ?? 0, extra: n.extra ?? "" }))
          .from(users)
          .where(
            and(
              eq(users.id, n.userId),
              ne(users.id, n.actorId),
              sql`not ${mutedBy(users.id, n.actorId)}`,
              sql`not ${domainBlockedBy(users.id, n.actorId)}`,
              n.when,
            ),
          )
          .getSQL(),
      )
      .onConflictDoNothing(),
  ];
}

/**
 * A `mention` for each person a note or reply names (never oneself), once per note or reply: an
 * edit that keeps a mention inserts nothing, and the badge moves by the rows the insert changed.
 * `answered`: the person the same write already tells (a reply's or quote's author), who gets that
 * one notice and no mention beside it, as on Mastodon.
 */
export function mentionStatements(
  db: DB,
  m: {
    actorId: number;
    tblname: "note" | "reply";
    targetId: number | SQL;
    userIds: number[];
    extra: string;
    when?: SQL;
    answered?: SQL;
  },
): Statement[] {
  const { answered, ...n } = m;
  return m.userIds.flatMap((userId) =>
    notifyStatements(db, {
      ...n,
      userId,
      action: "mention",
      when: answered ? and(m.when, sql`${userId} is not ${answered}`) : m.when,
    }),
  );
}

/** Undoing a like, a renote or a follow takes its notification back (`when`: the undo's own guard). */
export function unnotifyStatements(
  db: DB,
  n: { userId: Id | SQL; actorId: Id; action: Action; tblname?: string; targetId?: Id | SQL; when?: SQL },
): Statement[] {
  const row = and(
    eq(notifications.userId, n.userId),
    eq(notifications.actorId, n.actorId),
    eq(notifications.action, n.action),
    eq(notifications.tblname, n.tblname ?? ""),
    eq(notifications.targetId, n.targetId ?? 0),
    n.when,
  );
  return [db.delete(notifications).where(row)];
}

/**
 * Statements that notify every follower here of `actorId` of a new note (action "note"), for the notes
 * service's db.batch when a note is created: one INSERT … SELECT however many followers.
 */
export function noteCreatedStatements(
  db: DB,
  n: { actorId: number; noteId: number | SQL; extra: string; when?: SQL },
): Statement[] {
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
              targetId: n.noteId,
              extra: n.extra,
            }),
          )
          .from(follows)
          // Followers here only (follows_followee_local_idx): people elsewhere never read these, and
          // an author with many of them must post at the cost of one with none.
          .where(
            and(
              eq(follows.followeeId, n.actorId),
              sql`${follows.remote} = 0`,
              sql`not ${mutedBy(follows.followerId, n.actorId)}`,
              n.when,
            ),
          )
          .getSQL(),
      )
      .onConflictDoNothing(),
  ];
}
