CREATE TABLE `account_aliases` (
	`user_id` integer NOT NULL,
	`uri` text NOT NULL,
	`handle` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `uri`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_aliases_uri_idx` ON `account_aliases` (`uri`);--> statement-breakpoint
CREATE TABLE `account_moves` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`target_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_moves_target_idx` ON `account_moves` (`target_id`,`created_at`);