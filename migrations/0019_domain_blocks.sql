CREATE TABLE `domain_blocks` (
	`host` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
