CREATE TABLE `live_following` (
	`followee_id` integer NOT NULL,
	`follower_id` integer NOT NULL,
	PRIMARY KEY(`followee_id`, `follower_id`),
	FOREIGN KEY (`followee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `live_following_follower_idx` ON `live_following` (`follower_id`);--> statement-breakpoint
CREATE TABLE `live_presence` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- While a follower is online, their follows are mirrored into live_following (one probe of the
-- presence key per follow written; nothing when they are offline).
CREATE TRIGGER `live_following_ai` AFTER INSERT ON `follows`
WHEN EXISTS (SELECT 1 FROM live_presence WHERE account_id = new.follower_id) BEGIN
  INSERT INTO live_following (followee_id, follower_id) VALUES (new.followee_id, new.follower_id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `live_following_ad` AFTER DELETE ON `follows` BEGIN
  DELETE FROM live_following WHERE followee_id = old.followee_id AND follower_id = old.follower_id;
END;
--> statement-breakpoint
-- Coming online copies the person's follows (their following list, along follows' follower index);
-- going offline drops them.
CREATE TRIGGER `live_presence_ai` AFTER INSERT ON `live_presence` BEGIN
  INSERT INTO live_following (followee_id, follower_id)
    SELECT followee_id, follower_id FROM follows WHERE follower_id = new.account_id ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER `live_presence_ad` AFTER DELETE ON `live_presence` BEGIN
  DELETE FROM live_following WHERE follower_id = old.account_id;
END;
