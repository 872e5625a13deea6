import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";
import { cascadeRef, counter, createdAt, serialId } from "../columns";
import { newId } from "../../lib/ids";
import { users } from "./users";

/** kind: 0 note, 1 renote (no text, shows the original), 2 quote (text + embedded original). */
export const notes = sqliteTable(
  "notes",
  {
    // Made in the worker (lib/ids.ts), in one id space with replies; an insert that names none gets one.
    id: serialId().$defaultFn(() => newId("note")),
    userId: cascadeRef("user_id", () => users.id),
    kind: integer("kind").notNull().default(0),
    label: text("label").notNull().default(""),
    content: text("content").notNull().default(""),
    txt: text("txt").notNull().default(""),
    imgs: text("imgs").notNull().default(""),
    /** JSON list of the images' alt texts, in imgs' order ("" where none was given). */
    alts: text("alts").notNull().default("[]"),
    /**
     * JSON list of the images' natural sizes and blurhashes, in imgs' order: [width, height, blurhash]
     * where known (blurhash "" when none was made), null where not; pages reserve the box with it.
     */
    dims: text("dims").notNull().default("[]"),
    video: text("video").notNull().default(""),
    renoteId: integer("renote_id").references((): AnySQLiteColumn => notes.id, { onDelete: "set null" }),
    renum: counter("renum"),
    repnum: counter("repnum"),
    likenum: counter("likenum"),
    createdAt: createdAt(),
    notedAt: integer("noted_at").notNull(),
    updatedAt: integer("updated_at"),
    // Set by a moderator: the note answers 404 to all but its owner and moderators, and leaves lists.
    hiddenAt: integer("hidden_at"),
    /** Where an imported post was first published (its page in a Mastodon archive): shown as its origin. */
    originUrl: text("origin_url"),
  },
  (t) => [
    // An archive imported twice adds nothing: one note per original, per person.
    uniqueIndex("notes_origin_uq").on(t.userId, t.originUrl).where(sql`origin_url is not null`),
    index("notes_created_idx").on(t.createdAt, t.id),
    index("notes_user_created_idx").on(t.userId, t.createdAt, t.id),
    // The following feed merges its authors' notes newest id first (worker/features/feed).
    index("notes_user_id_idx").on(t.userId, t.id),
    index("notes_user_label_created_idx").on(t.userId, t.label, t.createdAt, t.id),
    index("notes_label_created_idx").on(t.label, t.createdAt, t.id),
    index("notes_renote_idx").on(t.renoteId),
    // One plain renote per user per note.
    uniqueIndex("notes_one_renote_uq").on(t.userId, t.renoteId).where(sql`kind = 1`),
  ],
);

export const noteTags = sqliteTable(
  "note_tags",
  {
    tag: text("tag").notNull(),
    noteId: cascadeRef("note_id", () => notes.id),
    // Copied from the note so the tag page pages by (tag, created_at, note_id) on one index.
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tag, t.noteId] }),
    index("note_tags_tag_created_idx").on(t.tag, t.createdAt, t.noteId),
    index("note_tags_note_idx").on(t.noteId),
  ],
);

/** A signed upload slot: one PUT, before expiry, of at most maxSize bytes, by its owner only. */
export const uploads = sqliteTable(
  "uploads",
  {
    key: text("key").primaryKey(),
    userId: cascadeRef("user_id", () => users.id),
    purpose: text("purpose").notNull(),
    contentType: text("content_type").notNull(),
    maxSize: integer("max_size").notNull(),
    expiresAt: integer("expires_at").notNull(),
    uploadedAt: integer("uploaded_at"),
    // Set on a slot reserved ahead of its note (POST /v1/uploads, the composer with JavaScript) and
    // cleared when a note takes it: one no note took within 24 h is removed with its object by the
    // cleanup cron (issue 21). Null for every other slot (a note's, an avatar's): attached at birth.
    unattachedSince: integer("unattached_since"),
    // The image's natural size, read from its header when the bytes reach the worker (else as the
    // browser declared it), and the blurhash the browser made from its own decode (null: none).
    width: integer("width"),
    height: integer("height"),
    blurhash: text("blurhash"),
    createdAt: createdAt(),
  },
  (t) => [
    index("uploads_user_idx").on(t.userId, t.createdAt),
    // The cleanup cron's "never completed after 24 h": only pending slots, oldest first.
    index("uploads_pending_idx").on(t.createdAt).where(sql`${t.uploadedAt} is null`),
    // Its "never attached after 24 h": only loose slots, oldest first.
    index("uploads_unattached_idx").on(t.unattachedSince).where(sql`${t.unattachedSince} is not null`),
  ],
);

/**
 * A note its author deleted: its id, so its page says "This note was deleted" (410) rather than a
 * bare 404. Only the id and the author stay, nothing of the content; the row goes with the account.
 */
export const deletedNotes = sqliteTable(
  "deleted_notes",
  {
    id: integer("id").primaryKey(),
    userId: cascadeRef("user_id", () => users.id),
    createdAt: createdAt(),
  },
  (t) => [index("deleted_notes_user_idx").on(t.userId)],
);
