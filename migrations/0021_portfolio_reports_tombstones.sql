CREATE TABLE `deleted_notes` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deleted_notes_user_idx` ON `deleted_notes` (`user_id`);--> statement-breakpoint
ALTER TABLE `folders` ADD `role` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `folders` ADD `start_month` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `folders` ADD `end_month` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `reports` ADD `note` text DEFAULT '' NOT NULL;