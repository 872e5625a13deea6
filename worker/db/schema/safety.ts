import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cascadeRef, createdAt, serialId } from "../columns";
import { userPairTable } from "../tables";
import { notes } from "./notes";
import { users } from "./users";

/** blocker blocks blocked: both directions' content and interactions are cut (worker/features/safety). */
export const blocks = userPairTable(
  "blocks",
  { key: "blockerId", column: "blocker_id", to: () => users.id },
  { key: "blockedId", column: "blocked_id", to: () => users.id },
  // The reverse lookup ("has the author blocked me?"); the Settings list pages on the created index.
  (t) => index("blocks_blocked_idx").on(t.to, t.from),
);

/** muter mutes muted: one-way, only the muter's lists and notifications change. */
export const mutes = userPairTable(
  "mutes",
  { key: "muterId", column: "muter_id", to: () => users.id },
  { key: "mutedId", column: "muted_id", to: () => users.id },
  (t) => index("mutes_muted_idx").on(t.to),
);

/**
 * A person's own block of a whole server (Mastodon's AccountDomainBlock): its people's posts,
 * replies, renotes and notifications leave that person's lists, the follows between them go, and
 * none can be made again while it holds. `host` as remote_actors.host has it (lower case, port
 * kept), matched exactly, as Mastodon matches an account's domain. The id orders the list.
 */
export const userDomainBlocks = sqliteTable(
  "user_domain_blocks",
  {
    id: serialId(),
    userId: cascadeRef("user_id", () => users.id),
    host: text("host").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("user_domain_blocks_user_host_uq").on(t.userId, t.host),
    index("user_domain_blocks_user_idx").on(t.userId, t.id),
  ],
);

/** Every moderation action, with its reason: the audit log. kind: note, reply, a folder kind, or user. */
export const moderationLog = sqliteTable(
  "moderation_log",
  {
    id: serialId(),
    // No foreign keys to users: the audit log outlives the accounts it names (a deleted moderator's
    // actions stay on record; the names then read as a deleted account).
    moderatorId: integer("moderator_id").notNull(),
    kind: text("kind").notNull(),
    targetId: integer("target_id").notNull(),
    /** The owner of the target when the action was taken (the user a suspension is about). */
    ownerId: integer("owner_id").notNull(),
    action: text("action").notNull(),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("moderation_log_created_idx").on(t.createdAt, t.id),
    index("moderation_log_moderator_idx").on(t.moderatorId),
    index("moderation_log_owner_idx").on(t.ownerId),
  ],
);

/** A note's earlier versions: each edit keeps the text it replaced (edited_at: when it was written). */
export const noteVersions = sqliteTable(
  "note_versions",
  {
    id: serialId(),
    noteId: cascadeRef("note_id", () => notes.id),
    label: text("label").notNull(),
    content: text("content").notNull(),
    txt: text("txt").notNull(),
    editedAt: integer("edited_at").notNull(),
  },
  (t) => [index("note_versions_note_idx").on(t.noteId, t.editedAt, t.id)],
);
