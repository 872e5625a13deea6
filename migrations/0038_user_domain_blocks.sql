CREATE TABLE `user_domain_blocks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`host` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_domain_blocks_user_host_uq` ON `user_domain_blocks` (`user_id`,`host`);--> statement-breakpoint
CREATE INDEX `user_domain_blocks_user_idx` ON `user_domain_blocks` (`user_id`,`id`);