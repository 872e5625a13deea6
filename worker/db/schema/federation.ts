// ActivityPub (worker/features/federation). Additive only: remote people are ordinary `users` rows
// (so follows, blocks, mutes, reports, likes and notifications take their id as they are) with one
// `remote_actors` row each that says where they live; remote posts are ordinary notes and replies
// with one `remote_objects` row each that keeps their object URI.
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cascadeRef, createdAt } from "../columns";
import { notes } from "./notes";
import { users } from "./users";

/**
 * A person on another server, stored as the `users` row `user_id`: username `name@host` (so it can
 * never collide with a local name, which has no "@"), email = the actor URI (never a mail address:
 * no sign-in, reset or confirmation flow can reach it), no password, no Google id, no folders.
 */
export const remoteActors = sqliteTable(
  "remote_actors",
  {
    userId: cascadeRef("user_id", () => users.id).primaryKey(),
    /** The actor's id (its ActivityPub URI): what every activity names them by. */
    uri: text("uri").notNull(),
    /** The handle's server (lower case), for domain blocks and the per-host rate limit. */
    host: text("host").notNull(),
    inbox: text("inbox").notNull(),
    sharedInbox: text("shared_inbox"),
    /** Their profile page on their own server (the "original profile" link). */
    url: text("url").notNull().default(""),
    /** Their profile fields (PropertyValue attachments) as JSON [{name, value}], values sanitised HTML. */
    fields: text("fields").notNull().default("[]"),
    /** The actor approves followers by hand (manuallyApprovesFollowers): a follow waits for their Accept. */
    locked: integer("locked").notNull().default(0),
    fetchedAt: integer("fetched_at").notNull(),
  },
  (t) => [uniqueIndex("remote_actors_uri_uq").on(t.uri), index("remote_actors_host_idx").on(t.host)],
);

/**
 * A remote post stored here: `kind` note (a `notes` row), reply (a `replies` row) or renote (an
 * Announce, a `notes` row of kind 1); `row_id` is that row. Deleting the row's author deletes this.
 */
export const remoteObjects = sqliteTable(
  "remote_objects",
  {
    uri: text("uri").primaryKey(),
    kind: text("kind").notNull(),
    rowId: integer("row_id").notNull(),
    /** The post's page on its own server (its `url`), when it named one: what apps open. */
    url: text("url"),
    userId: cascadeRef("user_id", () => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("remote_objects_row_uq").on(t.kind, t.rowId), index("remote_objects_user_idx").on(t.userId)],
);

/**
 * A local account's signing keys, made once at first need: RSA (draft-cavage signatures, the
 * actor's publicKey) and Ed25519 (FEP-8b32 proofs, assertionMethod). Private halves are JWKs
 * sealed with AES-GCM under FEDERATION_SECRET (worker/features/federation/keys.ts).
 */
export const actorKeys = sqliteTable("actor_keys", {
  userId: cascadeRef("user_id", () => users.id).primaryKey(),
  rsaPublic: text("rsa_public").notNull(),
  rsaPrivate: text("rsa_private").notNull(),
  edPublic: text("ed_public").notNull(),
  edPrivate: text("ed_private").notNull(),
  createdAt: createdAt(),
});

/** Fedify's key-value store (caches, inbox idempotence, circuit-breaker state): D1, so strongly consistent. */
export const fedKv = sqliteTable(
  "fed_kv",
  {
    key: text("key").primaryKey(),
    value: text("value").notNull(),
    expiresAt: integer("expires_at"),
  },
  (t) => [index("fed_kv_expires_idx").on(t.expiresAt)],
);

/**
 * A server the moderators cut off (Mastodon's domain block, severity "suspend"): nothing is
 * accepted from it, nothing delivered to it, and its people here are suspended at `created_at`
 * (lifting the block unsuspends exactly those). `created_by` has no foreign key, as the audit log.
 */
export const domainBlocks = sqliteTable("domain_blocks", {
  host: text("host").primaryKey(),
  reason: text("reason").notNull(),
  createdBy: integer("created_by").notNull(),
  createdAt: createdAt(),
});

/**
 * A local account that was deleted: only its id (no name, nothing it wrote), so its actor and
 * collections answer 410 Gone, as Mastodon's do, rather than 404 (other servers then drop it).
 */
export const deletedAccounts = sqliteTable("deleted_accounts", {
  id: integer("id").primaryKey(),
  deletedAt: integer("deleted_at").notNull(),
});

/**
 * A remote image that stored content shows through the image proxy (federation/media.ts): `sig` is
 * its proxy path's signature (an HMAC of the URL), `user_id` the remote person whose avatar or
 * cover it is (note_id null) or whose note's picture it is. The proxy fetches a URL only while a
 * row names it; the rows go with the note or the person (cascades), so a deleted post's pictures
 * stop being served.
 */
export const remoteMedia = sqliteTable(
  "remote_media",
  {
    sig: text("sig").notNull(),
    userId: cascadeRef("user_id", () => users.id),
    noteId: integer("note_id").references(() => notes.id, { onDelete: "cascade" }),
  },
  (t) => [
    index("remote_media_sig_idx").on(t.sig),
    index("remote_media_user_idx").on(t.userId, t.noteId),
    index("remote_media_note_idx").on(t.noteId),
  ],
);

/**
 * A local person's follow of a locked remote account, sent and waiting for their Accept (then it
 * becomes a `follows` row) or Reject (then it goes): shown as "Requested", as Mastodon shows it.
 */
export const followRequests = sqliteTable(
  "follow_requests",
  {
    followerId: cascadeRef("follower_id", () => users.id),
    followeeId: cascadeRef("followee_id", () => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index("follow_requests_followee_idx").on(t.followeeId),
  ],
);
