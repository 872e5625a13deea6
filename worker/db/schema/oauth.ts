import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cascadeRef, createdAt, serialId } from "../columns";
import { users } from "./users";

/**
 * A client registered through POST /api/v1/apps (a Mastodon app: Elk, Ivory, Tusky...). Anyone may
 * register one, as on Mastodon; the secret is kept only as its SHA-256.
 */
export const oauthApps = sqliteTable(
  "oauth_apps",
  {
    id: serialId(),
    clientId: text("client_id").notNull(),
    secretHash: text("secret_hash").notNull(),
    name: text("name").notNull(),
    website: text("website"),
    /** The exact redirect URIs, one per line (compared whole, never by prefix). */
    redirectUris: text("redirect_uris").notNull(),
    /** The scopes the app may ask for, space separated. */
    scopes: text("scopes").notNull(),
    createdAt: createdAt(),
    /** When a person first authorised it (ms); null: nobody yet, and the hourly cleanup removes it after a day. */
    usedAt: integer("used_at"),
  },
  (t) => [
    uniqueIndex("oauth_apps_client_uq").on(t.clientId),
    index("oauth_apps_unused_idx").on(t.createdAt).where(sql`${t.usedAt} is null`),
  ],
);

/** A one-time authorisation code (RFC 6749 4.1): only its hash is kept; it lives minutes and is spent once. */
export const oauthCodes = sqliteTable(
  "oauth_codes",
  {
    id: text("id").primaryKey(),
    appId: cascadeRef("app_id", () => oauthApps.id),
    userId: cascadeRef("user_id", () => users.id),
    redirectUri: text("redirect_uri").notNull(),
    scopes: text("scopes").notNull(),
    /** PKCE S256 challenge, or "" when the app sent none. */
    challenge: text("challenge").notNull().default(""),
    expiresAt: integer("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_codes_app_idx").on(t.appId), index("oauth_codes_user_idx").on(t.userId)],
);

/**
 * An app's own access token (client_credentials: no person behind it), as the SHA-256 of the
 * bearer secret; it lives a day from created_at (mastodon/tokens.ts). A person's tokens are
 * sign-in sessions in KV (lib/sessions.ts).
 */
export const oauthTokens = sqliteTable(
  "oauth_tokens",
  {
    id: text("id").primaryKey(),
    appId: cascadeRef("app_id", () => oauthApps.id),
    scopes: text("scopes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_tokens_app_idx").on(t.appId), index("oauth_tokens_created_idx").on(t.createdAt)],
);

/**
 * Idempotency-Key of POST /api/v1/statuses (Mastodon keeps them an hour): the same key from the
 * same person answers the status it made the first time instead of posting twice.
 */
export const mastoIdempotency = sqliteTable(
  "masto_idempotency",
  {
    userId: cascadeRef("user_id", () => users.id),
    key: text("key").notNull(),
    statusId: text("status_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index("masto_idempotency_user_created_idx").on(t.userId, t.createdAt),
  ],
);
