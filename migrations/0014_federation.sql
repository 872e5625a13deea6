CREATE TABLE `actor_keys` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`rsa_public` text NOT NULL,
	`rsa_private` text NOT NULL,
	`ed_public` text NOT NULL,
	`ed_private` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fed_kv` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `fed_kv_expires_idx` ON `fed_kv` (`expires_at`);--> statement-breakpoint
CREATE TABLE `remote_actors` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`uri` text NOT NULL,
	`host` text NOT NULL,
	`inbox` text NOT NULL,
	`shared_inbox` text,
	`url` text DEFAULT '' NOT NULL,
	`fetched_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `remote_actors_uri_uq` ON `remote_actors` (`uri`);--> statement-breakpoint
CREATE INDEX `remote_actors_host_idx` ON `remote_actors` (`host`);--> statement-breakpoint
CREATE TABLE `remote_objects` (
	`uri` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`row_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `remote_objects_row_uq` ON `remote_objects` (`kind`,`row_id`);--> statement-breakpoint
CREATE INDEX `remote_objects_user_idx` ON `remote_objects` (`user_id`);