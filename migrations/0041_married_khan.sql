ALTER TABLE `import_jobs` ADD `refused` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `import_jobs` ADD `refusals` text DEFAULT '[]' NOT NULL;