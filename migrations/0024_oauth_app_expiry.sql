ALTER TABLE `oauth_apps` ADD `used_at` integer;--> statement-breakpoint
CREATE INDEX `oauth_apps_unused_idx` ON `oauth_apps` (`created_at`) WHERE "oauth_apps"."used_at" is null;--> statement-breakpoint
CREATE INDEX `oauth_tokens_created_idx` ON `oauth_tokens` (`created_at`);--> statement-breakpoint
-- Apps registered before this column: whether a person authorised them is unknown, so none is
-- taken for unused (the hourly cleanup never removes them).
UPDATE `oauth_apps` SET `used_at` = `created_at`;
