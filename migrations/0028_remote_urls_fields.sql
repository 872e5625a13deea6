ALTER TABLE `remote_actors` ADD `fields` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `remote_objects` ADD `url` text;