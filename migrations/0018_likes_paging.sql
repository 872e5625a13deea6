DROP INDEX `likes_target_idx`;--> statement-breakpoint
CREATE INDEX `likes_target_created_idx` ON `likes` (`kind`,`target_id`,`created_at`,`user_id`);--> statement-breakpoint
CREATE INDEX `likes_user_kind_created_idx` ON `likes` (`user_id`,`kind`,`created_at`,`target_id`);