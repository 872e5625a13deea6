import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  type SQLiteColumn,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { cascadeRef, counter, createdAt, derivedRef, serialId } from "../columns";
import { newId } from "../../lib/ids";
import { folders } from "./folders";
import { notes } from "./notes";
import { users } from "./users";

/**
 * follower follows followee. `remote`: the follower is someone on another server (set by the
 * follow's own insert): a new note notifies only the followers here, along the partial index of
 * local follows, so an author's post costs the same with 10,000 followers elsewhere as with none;
 * whether a post is delivered at all asks the partial index of remote ones for its first row.
 */
export const follows = sqliteTable(
  "follows",
  {
    followerId: cascadeRef("follower_id", () => users.id),
    followeeId: cascadeRef("followee_id", () => users.id),
    createdAt: createdAt(),
    remote: integer("remote").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index("follows_follower_created_idx").on(t.followerId, t.createdAt, t.followeeId),
    index("follows_followee_created_idx").on(t.followeeId, t.createdAt, t.followerId),
    index("follows_followee_local_idx").on(t.followeeId, t.followerId).where(sql`remote = 0`),
    index("follows_followee_remote_idx").on(t.followeeId).where(sql`remote = 1`),
  ],
);

/**
 * What a row about a piece of content points at, as the database sees it: one derived column per
 * target table, each a foreign key with ON DELETE CASCADE, so a deleted note, reply or x-folder
 * takes every like, bookmark, report and notification about it along (no delete path lists
 * them). `kind` and `id` name the row's own columns that say what it is about.
 */
const contentRefs = (kind: string, id: string, folderKinds: string) => {
  const k = sql.identifier(kind);
  return {
    noteId: derivedRef("note_id", sql`${k} = 'note'`, id, () => notes.id),
    replyId: derivedRef("reply_id", sql`${k} = 'reply'`, id, (): AnySQLiteColumn => replies.id),
    folderId: derivedRef("folder_id", sql`${k} in (${sql.raw(folderKinds)})`, id, () => folders.id),
  };
};

/** Each target column indexed: the cascade finds the rows about a deleted target in O(its rows). */
const contentIndexes = (table: string, t: { noteId: SQLiteColumn; replyId: SQLiteColumn; folderId: SQLiteColumn }) => [
  index(`${table}_note_idx`).on(t.noteId),
  index(`${table}_reply_idx`).on(t.replyId),
  index(`${table}_folder_idx`).on(t.folderId),
];

/**
 * A person's act on a piece of content (like, bookmark, report). Content kinds: note, reply,
 * company, project, skill (the last three are x-folders).
 */
const userOnContent = () => ({
  userId: cascadeRef("user_id", () => users.id),
  kind: text("kind").notNull(),
  targetId: integer("target_id").notNull(),
  ...contentRefs("kind", "target_id", "'company', 'project', 'skill'"),
});

export const likes = sqliteTable("likes", { ...userOnContent(), createdAt: createdAt() }, (t) => [
  primaryKey({ columns: [t.userId, t.kind, t.targetId] }),
  // A status's likers newest first (Mastodon's favourited_by pages along it), and a person's own
  // likes newest first (Mastodon's favourites list).
  index("likes_target_created_idx").on(t.kind, t.targetId, t.createdAt, t.userId),
  index("likes_user_kind_created_idx").on(t.userId, t.kind, t.createdAt, t.targetId),
  ...contentIndexes("likes", t),
]);

export const bookmarks = sqliteTable("bookmarks", { ...userOnContent(), createdAt: createdAt() }, (t) => [
  primaryKey({ columns: [t.userId, t.kind, t.targetId] }),
  index("bookmarks_user_kind_created_idx").on(t.userId, t.kind, t.createdAt, t.targetId),
  index("bookmarks_target_idx").on(t.kind, t.targetId),
  ...contentIndexes("bookmarks", t),
]);

export const reports = sqliteTable(
  "reports",
  {
    id: serialId(),
    ...userOnContent(),
    reason: integer("reason").notNull(),
    // What the reporter added in their own words (optional), shown in the moderation queue.
    note: text("note").notNull().default(""),
    createdAt: createdAt(),
    // Set when a moderator acts on the target (any action closes all of its reports).
    closedAt: integer("closed_at"),
  },
  (t) => [
    uniqueIndex("reports_once_uq").on(t.userId, t.kind, t.targetId),
    index("reports_created_idx").on(t.createdAt, t.id),
    index("reports_target_idx").on(t.kind, t.targetId),
    // The moderation queue groups open (or closed) reports by target.
    index("reports_status_target_idx").on(sql`(${t.closedAt} is null)`, t.kind, t.targetId),
    ...contentIndexes("reports", t),
  ],
);

/**
 * A reply hangs under its note (`note_id`) and, when it answers another reply, that reply
 * (`parent_reply_id`, null for a reply on the note itself). Deleting either deletes the reply.
 */
export const replies = sqliteTable(
  "replies",
  {
    // Made in the worker (lib/ids.ts), in one id space with notes; an insert that names none gets one.
    id: serialId().$defaultFn(() => newId("reply")),
    userId: cascadeRef("user_id", () => users.id),
    noteId: cascadeRef("note_id", () => notes.id),
    parentReplyId: integer("parent_reply_id").references((): AnySQLiteColumn => replies.id, { onDelete: "cascade" }),
    content: text("content").notNull(),
    txt: text("txt").notNull().default(""),
    likenum: counter("likenum"),
    repnum: counter("repnum"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at"),
    hiddenAt: integer("hidden_at"),
    /** Where an imported reply was first published: an archive imported twice adds nothing. */
    originUrl: text("origin_url"),
  },
  (t) => [
    uniqueIndex("replies_origin_uq").on(t.userId, t.originUrl).where(sql`origin_url is not null`),
    // A reply's direct replies oldest first (and its foreign key's cascade); a note's own replies
    // (those answering no reply) oldest first.
    index("replies_parent_created_idx").on(t.parentReplyId, t.createdAt, t.id),
    index("replies_note_top_idx").on(t.noteId, t.createdAt, t.id).where(sql`parent_reply_id is null`),
    index("replies_note_idx").on(t.noteId),
    index("replies_user_idx").on(t.userId, t.createdAt, t.id),
  ],
);

export const notifications = sqliteTable(
  "notifications",
  {
    id: serialId(),
    userId: cascadeRef("user_id", () => users.id),
    actorId: cascadeRef("actor_id", () => users.id),
    action: text("action").notNull(),
    tblname: text("tblname").notNull().default(""),
    /** The id of the note, reply or x-folder `tblname` names (0 when it names none). */
    targetId: integer("target_id").notNull().default(0),
    extra: text("extra").notNull().default(""),
    createdAt: createdAt(),
    // A like of an x-folder is about "folder"; a follow or an account's moderation, no content.
    ...contentRefs("tblname", "target_id", "'folder'"),
  },
  (t) => [
    index("notifications_user_created_idx").on(t.userId, t.createdAt, t.id),
    // The Mentions tab (notifications.service.ts MENTION_ACTIONS, the same terms).
    index("notifications_user_mentions_idx")
      .on(t.userId, t.createdAt, t.id)
      .where(sql`${t.action} in ('mention', 'reply', 'quote')`),
    index("notifications_actor_idx").on(t.actorId),
    index("notifications_target_idx").on(t.tblname, t.targetId),
    ...contentIndexes("notifications", t),
    // Makes a repeated like/follow idempotent and lets undo find exactly the row to remove.
    uniqueIndex("notifications_once_uq").on(t.userId, t.actorId, t.action, t.tblname, t.targetId),
  ],
);
