CREATE TABLE `import_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`mode` text DEFAULT 'merge' NOT NULL,
	`state` text DEFAULT 'queued' NOT NULL,
	`file_name` text DEFAULT '' NOT NULL,
	`origin` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`failures` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_jobs_user_created_idx` ON `import_jobs` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `import_jobs_state_updated_idx` ON `import_jobs` (`state`,`updated_at`);--> statement-breakpoint
CREATE TABLE `import_rows` (
	`job_id` integer NOT NULL,
	`n` integer NOT NULL,
	`data` text NOT NULL,
	`target` integer,
	`target_kind` text DEFAULT '' NOT NULL,
	PRIMARY KEY(`job_id`, `n`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
