-- The notifications column that names a note, reply or x-folder by its id was called `rowid`,
-- which shadows SQLite's own rowid; it is `target_id` now. SQLite refuses to rename a column
-- called rowid, so the table is built again under the new name (rows, ids and indexes as before).
-- Its badge triggers come back without the '_gone' marker that nothing writes.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`action` text NOT NULL,
	`tblname` text DEFAULT '' NOT NULL,
	`target_id` integer DEFAULT 0 NOT NULL,
	`extra` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`note_id` integer GENERATED ALWAYS AS (case when "tblname" = 'note' then "target_id" end) VIRTUAL REFERENCES notes(id) ON DELETE cascade,
	`reply_id` integer GENERATED ALWAYS AS (case when "tblname" = 'reply' then "target_id" end) VIRTUAL REFERENCES replies(id) ON DELETE cascade,
	`folder_id` integer GENERATED ALWAYS AS (case when "tblname" in ('folder') then "target_id" end) VIRTUAL REFERENCES folders(id) ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
INSERT INTO `__new_notifications` (`id`, `user_id`, `actor_id`, `action`, `tblname`, `target_id`, `extra`, `created_at`)
  SELECT `id`, `user_id`, `actor_id`, `action`, `tblname`, `rowid`, `extra`, `created_at` FROM `notifications`;--> statement-breakpoint
DROP TABLE `notifications`;--> statement-breakpoint
ALTER TABLE `__new_notifications` RENAME TO `notifications`;--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_user_mentions_idx` ON `notifications` (`user_id`,`created_at`,`id`) WHERE "notifications"."action" in ('mention', 'reply', 'quote');--> statement-breakpoint
CREATE INDEX `notifications_actor_idx` ON `notifications` (`actor_id`);--> statement-breakpoint
CREATE INDEX `notifications_target_idx` ON `notifications` (`tblname`,`target_id`);--> statement-breakpoint
CREATE INDEX `notifications_note_idx` ON `notifications` (`note_id`);--> statement-breakpoint
CREATE INDEX `notifications_reply_idx` ON `notifications` (`reply_id`);--> statement-breakpoint
CREATE INDEX `notifications_folder_idx` ON `notifications` (`folder_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_once_uq` ON `notifications` (`user_id`,`actor_id`,`action`,`tblname`,`target_id`);--> statement-breakpoint
CREATE TRIGGER `notifications_unread_in` AFTER INSERT ON `notifications`
BEGIN
  UPDATE users SET noti_num = noti_num + 1 WHERE id = new.user_id AND new.id > noti_seen;
END;--> statement-breakpoint
CREATE TRIGGER `notifications_unread_out` AFTER DELETE ON `notifications`
BEGIN
  UPDATE users SET noti_num = noti_num - 1 WHERE id = old.user_id AND old.id > noti_seen;
END;
