import { index, integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { cascadeRef, createdAt } from "../columns";
import { users } from "./users";

/**
 * Who has at least one live socket open (worker/features/live): written by the socket's hub when
 * the person's first socket opens and removed when the last one closes, never by a request.
 */
export const livePresence = sqliteTable("live_presence", {
  accountId: integer("account_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

/**
 * The follows of people who are online, kept beside `follows` (copied in when a person comes
 * online, kept by triggers on `follows` while they are, dropped when they leave): a post's live
 * fan-out reads the author's range of it, so it costs the online followers, not all followers.
 */
export const liveFollowing = sqliteTable(
  "live_following",
  {
    followeeId: cascadeRef("followee_id", () => users.id),
    followerId: cascadeRef("follower_id", () => users.id),
  },
  (t) => [primaryKey({ columns: [t.followeeId, t.followerId] }), index("live_following_follower_idx").on(t.followerId)],
);
