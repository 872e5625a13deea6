-- A reply names the reply it answers in its own column, a foreign key (null for a reply on the
-- note itself), instead of `parent` holding the negative note id for those. Added and dropped in
-- place, not by rebuilding the table: dropping `replies` would run its likes', bookmarks' and
-- notifications' ON DELETE CASCADE and take its triggers (full-text index, counters) along.
DROP INDEX `replies_parent_created_idx`;--> statement-breakpoint
ALTER TABLE `replies` ADD `parent_reply_id` integer REFERENCES replies(id) ON DELETE cascade;--> statement-breakpoint
UPDATE `replies` SET `parent_reply_id` = `parent` WHERE `parent` > 0;--> statement-breakpoint
CREATE INDEX `replies_note_top_idx` ON `replies` (`note_id`,`created_at`,`id`) WHERE parent_reply_id is null;--> statement-breakpoint
CREATE INDEX `replies_parent_created_idx` ON `replies` (`parent_reply_id`,`created_at`,`id`);--> statement-breakpoint
ALTER TABLE `replies` DROP COLUMN `parent`;
