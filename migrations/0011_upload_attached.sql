ALTER TABLE `uploads` ADD `unattached_since` integer;--> statement-breakpoint
CREATE INDEX `uploads_unattached_idx` ON `uploads` (`unattached_since`) WHERE "uploads"."unattached_since" is not null;