import { sql } from "drizzle-orm";
import { integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { counter, createdAt } from "../columns";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull(),
    email: text("email").notNull(),
    fullname: text("fullname").notNull(),
    // Versioned encoded hash ("pbkdf2-sha256$iter$salt$hash"); null for Google-only accounts.
    passwordHash: text("password_hash"),
    googleSub: text("google_sub"),
    avatar: text("avatar").notNull().default(""),
    cover: text("cover").notNull().default(""),
    descr: text("descr").notNull().default(""),
    confirmed: integer("confirmed", { mode: "boolean" }).notNull().default(false),
    // Bumped by password change and logout-everywhere; tokens and sessions carry the epoch they
    // were minted under, so revocation is immediate without waiting for KV to converge.
    sessionEpoch: integer("session_epoch").notNull().default(0),
    followingNum: counter("following_num"),
    followerNum: counter("follower_num"),
    noteNum: counter("note_num"),
    notiNum: counter("noti_num"),
    // The newest notification id the user has seen; unread = notifications after it.
    notiSeen: counter("noti_seen"),
    invitationNum: counter("invitation_num"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_uq").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_uq").on(t.email),
    uniqueIndex("users_google_sub_uq").on(t.googleSub),
  ],
);

/** jslabel: how many of a user's notes carry each x-label; one row per (user, label). */
export const userLabels = sqliteTable(
  "user_labels",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    label: text("label").notNull(),
    n: counter("n"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.label] })],
);

/** jstype: how many x-folders a user has of each type. */
export const userTypes = sqliteTable(
  "user_types",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    n: counter("n"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);
