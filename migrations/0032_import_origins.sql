ALTER TABLE `notes` ADD `origin_url` text;--> statement-breakpoint
CREATE UNIQUE INDEX `notes_origin_uq` ON `notes` (`user_id`,`origin_url`) WHERE origin_url is not null;--> statement-breakpoint
ALTER TABLE `replies` ADD `origin_url` text;--> statement-breakpoint
CREATE UNIQUE INDEX `replies_origin_uq` ON `replies` (`user_id`,`origin_url`) WHERE origin_url is not null;