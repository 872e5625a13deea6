CREATE TABLE `cron_state` (
	`job` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `uploads_pending_idx` ON `uploads` (`created_at`) WHERE "uploads"."uploaded_at" is null;