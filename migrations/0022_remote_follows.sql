ALTER TABLE `follows` ADD `remote` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `follows_followee_local_idx` ON `follows` (`followee_id`,`follower_id`) WHERE remote = 0;--> statement-breakpoint
-- Follows that people on other servers already hold.
UPDATE `follows` SET `remote` = 1 WHERE `follower_id` IN (SELECT `user_id` FROM `remote_actors`);
