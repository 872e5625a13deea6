CREATE TABLE `remote_media` (
	`sig` text NOT NULL,
	`user_id` integer NOT NULL,
	`note_id` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `remote_media_sig_idx` ON `remote_media` (`sig`);--> statement-breakpoint
CREATE INDEX `remote_media_user_idx` ON `remote_media` (`user_id`,`note_id`);--> statement-breakpoint
CREATE INDEX `remote_media_note_idx` ON `remote_media` (`note_id`);