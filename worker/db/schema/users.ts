import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cascadeRef, counter, createdAt, serialId } from "../columns";
import { tallyTable } from "../tables";

export const users = sqliteTable(
  "users",
  {
    id: serialId(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    fullname: text("fullname").notNull(),
    // Versioned encoded hash ("pbkdf2-sha256$iter$salt$hash"); null for Google-only accounts.
    passwordHash: text("password_hash"),
    googleSub: text("google_sub"),
    avatar: text("avatar").notNull().default(""),
    cover: text("cover").notNull().default(""),
    descr: text("descr").notNull().default(""),
    // A one-line "what I do" under the name, and where the person is: the profile read as a CV.
    headline: text("headline").notNull().default(""),
    location: text("location").notNull().default(""),
    // Profile links as Mastodon's fields, JSON [{name, value (the URL), verified_at}]: verified_at
    // is set once the page links back with rel="me" (features/users/verify-links.ts).
    links: text("links").notNull().default("[]"),
    // The colour theme follows the account to every device (lib/theme.ts): system, light or dark.
    theme: text("theme").notNull().default("system"),
    // What the person said they care about, as onboarding asks it: a JSON array of topic keys
    // (features/interests/topics.ts), which people to suggest first is read from.
    interests: text("interests").notNull().default("[]"),
    confirmed: integer("confirmed", { mode: "boolean" }).notNull().default(false),
    // An address asked for but not yet confirmed: it becomes `email` only when its link is opened.
    pendingEmail: text("pending_email"),
    followingNum: counter("following_num"),
    followerNum: counter("follower_num"),
    noteNum: counter("note_num"),
    notiNum: counter("noti_num"),
    // The newest notification id the user has seen; unread = notifications after it.
    notiSeen: counter("noti_seen"),
    invitationNum: counter("invitation_num"),
    // user, moderator or admin (npm run role); moderators act on reports at /moderation.
    role: text("role").notNull().default("user"),
    // Set while suspended: no login, no session, content out of every list and page.
    suspendedAt: integer("suspended_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_uq").on(sql`lower(${t.username})`),
    // Search matches names by prefix along this index (a range, never a scan).
    index("users_fullname_idx").on(sql`lower(${t.fullname})`, t.id),
    // People to follow: the most-followed first (worker/features/follows/suggestions.service.ts).
    index("users_followers_idx").on(t.followerNum, t.id),
    uniqueIndex("users_email_uq").on(t.email),
    uniqueIndex("users_google_sub_uq").on(t.googleSub),
  ],
);

/** jslabel: how many of a user's notes carry each x-label; one row per (user, label). */
export const userLabels = tallyTable("user_labels", { key: "userId", column: "user_id", to: () => users.id }, "label");

/** jstype: how many x-folders a user has of each type. */
export const userTypes = tallyTable("user_types", { key: "userId", column: "user_id", to: () => users.id }, "type");

/**
 * Single-use links sent by email (confirm an address, reset a password): only the SHA-256 of the
 * 256-bit token is kept; a newer token of the same purpose replaces the older one.
 */
export const accountTokens = sqliteTable(
  "account_tokens",
  {
    id: text("id").primaryKey(),
    userId: cascadeRef("user_id", () => users.id),
    purpose: text("purpose").notNull(),
    // For "confirm": the address the link confirms (the account's email or its pending one).
    email: text("email").notNull().default(""),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("account_tokens_user_purpose_idx").on(t.userId, t.purpose)],
);

/** Local only (APP_ENV=local): every message sent, readable at /v1/dev/outbox and /dev/outbox. */
export const mailOutbox = sqliteTable(
  "mail_outbox",
  {
    id: serialId(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    sentAt: createdAt(),
  },
  (t) => [index("mail_outbox_to_idx").on(t.to, t.id)],
);

/**
 * Usernames an account gave up by renaming (issue 21 item 16). Links under /{old}/… answer a 301
 * to the same path under the account's name now, for as long as nobody else holds the old name;
 * for 30 days after the rename only its former owner may take it (users.service RESERVE_MS). A
 * name someone claims loses its row; the rows go with the account.
 */
export const formerUsernames = sqliteTable(
  "former_usernames",
  {
    // Lower-cased, as users_username_uq compares.
    username: text("username").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    releasedAt: integer("released_at").notNull(),
  },
  (t) => [index("former_usernames_user_idx").on(t.userId)],
);
