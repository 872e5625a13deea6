CREATE TABLE `former_usernames` (
	`username` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`released_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `former_usernames_user_idx` ON `former_usernames` (`user_id`);