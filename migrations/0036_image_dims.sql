ALTER TABLE `notes` ADD `dims` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `uploads` ADD `width` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `height` integer;--> statement-breakpoint
ALTER TABLE `uploads` ADD `blurhash` text;