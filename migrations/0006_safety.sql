CREATE TABLE `blocks` (
	`blocker_id` integer NOT NULL,
	`blocked_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`blocker_id`, `blocked_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_blocked_idx` ON `blocks` (`blocked_id`,`blocker_id`);--> statement-breakpoint
CREATE INDEX `blocks_blocker_created_idx` ON `blocks` (`blocker_id`,`created_at`,`blocked_id`);--> statement-breakpoint
CREATE TABLE `moderation_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`moderator_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`action` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `moderation_log_created_idx` ON `moderation_log` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `moderation_log_moderator_idx` ON `moderation_log` (`moderator_id`);--> statement-breakpoint
CREATE INDEX `moderation_log_owner_idx` ON `moderation_log` (`owner_id`);--> statement-breakpoint
CREATE TABLE `mutes` (
	`muter_id` integer NOT NULL,
	`muted_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`muter_id`, `muted_id`),
	FOREIGN KEY (`muter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`muted_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mutes_muted_idx` ON `mutes` (`muted_id`);--> statement-breakpoint
CREATE INDEX `mutes_muter_created_idx` ON `mutes` (`muter_id`,`created_at`,`muted_id`);--> statement-breakpoint
CREATE TABLE `note_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`note_id` integer NOT NULL,
	`label` text NOT NULL,
	`content` text NOT NULL,
	`txt` text NOT NULL,
	`edited_at` integer NOT NULL,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `note_versions_note_idx` ON `note_versions` (`note_id`,`edited_at`,`id`);--> statement-breakpoint
ALTER TABLE `notes` ADD `hidden_at` integer;--> statement-breakpoint
ALTER TABLE `replies` ADD `hidden_at` integer;--> statement-breakpoint
ALTER TABLE `reports` ADD `closed_at` integer;--> statement-breakpoint
CREATE INDEX `reports_status_target_idx` ON `reports` (("closed_at" is null),`kind`,`target_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `role` text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` integer;