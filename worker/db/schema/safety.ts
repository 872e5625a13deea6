import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
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
