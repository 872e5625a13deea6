CREATE TABLE `deleted_accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`deleted_at` integer NOT NULL
);
