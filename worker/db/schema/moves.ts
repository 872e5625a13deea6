// Account migration (worker/features/moves), as the fediverse does it: an account names the
// accounts it came from (alsoKnownAs), and an account that moved names where it went (movedTo).
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cascadeRef, createdAt } from "../columns";
import { users } from "./users";

/**
 * A local account's former accounts (its actor's alsoKnownAs): the actor URI each was verified
 * at, and the handle the person typed, for the settings page. A `Move` from one of them to this
 * account is then believed by its followers' servers.
 */
export const accountAliases = sqliteTable(
  "account_aliases",
  {
    userId: cascadeRef("user_id", () => users.id),
    uri: text("uri").notNull(),
    handle: text("handle").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.uri] }), index("account_aliases_uri_idx").on(t.uri)],
);

/**
 * An account that moved (a local one that moved out, or someone elsewhere whose verified `Move`
 * arrived): `target_id` is the account it moved to (its actor's movedTo). A moved account stays
 * readable; a local one federates no new posts.
 */
export const accountMoves = sqliteTable(
  "account_moves",
  {
    userId: cascadeRef("user_id", () => users.id).primaryKey(),
    targetId: integer("target_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("account_moves_target_idx").on(t.targetId, t.createdAt)],
);
