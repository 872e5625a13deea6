-- The unread badge (users.noti_num: notifications after noti_seen) follows the rows themselves:
-- whatever adds or removes a notification (a write, an undo, a cascade from deleted content or
-- an account) moves it by exactly that row. No write path counts notifications any more.
CREATE TRIGGER `notifications_unread_in` AFTER INSERT ON `notifications` WHEN new.tblname != '_gone'
BEGIN
  UPDATE users SET noti_num = noti_num + 1 WHERE id = new.user_id AND new.id > noti_seen;
END;--> statement-breakpoint
CREATE TRIGGER `notifications_unread_out` AFTER DELETE ON `notifications` WHEN old.tblname != '_gone'
BEGIN
  UPDATE users SET noti_num = noti_num - 1 WHERE id = old.user_id AND old.id > noti_seen;
END;--> statement-breakpoint
-- Rows about content that is already gone (the delete paths used to miss bookmarks and reports of
-- a deleted note, for one) go before the next migration makes them foreign keys.
DELETE FROM likes WHERE (kind = 'note' AND target_id NOT IN (SELECT id FROM notes))
  OR (kind = 'reply' AND target_id NOT IN (SELECT id FROM replies))
  OR (kind IN ('company', 'project', 'skill') AND target_id NOT IN (SELECT id FROM folders));--> statement-breakpoint
DELETE FROM bookmarks WHERE (kind = 'note' AND target_id NOT IN (SELECT id FROM notes))
  OR (kind = 'reply' AND target_id NOT IN (SELECT id FROM replies))
  OR (kind IN ('company', 'project', 'skill') AND target_id NOT IN (SELECT id FROM folders));--> statement-breakpoint
DELETE FROM reports WHERE (kind = 'note' AND target_id NOT IN (SELECT id FROM notes))
  OR (kind = 'reply' AND target_id NOT IN (SELECT id FROM replies))
  OR (kind IN ('company', 'project', 'skill') AND target_id NOT IN (SELECT id FROM folders));--> statement-breakpoint
DELETE FROM notifications WHERE (tblname = 'note' AND rowid NOT IN (SELECT id FROM notes))
  OR (tblname = 'reply' AND rowid NOT IN (SELECT id FROM replies))
  OR (tblname = 'folder' AND rowid NOT IN (SELECT id FROM folders));
--> statement-breakpoint
-- drizzle-kit 0.31 leaves out ON DELETE of a column added by ALTER TABLE (its snapshot has it): added by hand.
ALTER TABLE `bookmarks` ADD `note_id` integer GENERATED ALWAYS AS (case when "kind" = 'note' then "target_id" end) VIRTUAL REFERENCES notes(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `bookmarks` ADD `reply_id` integer GENERATED ALWAYS AS (case when "kind" = 'reply' then "target_id" end) VIRTUAL REFERENCES replies(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `bookmarks` ADD `folder_id` integer GENERATED ALWAYS AS (case when "kind" in ('company', 'project', 'skill') then "target_id" end) VIRTUAL REFERENCES folders(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `bookmarks_note_idx` ON `bookmarks` (`note_id`);--> statement-breakpoint
CREATE INDEX `bookmarks_reply_idx` ON `bookmarks` (`reply_id`);--> statement-breakpoint
CREATE INDEX `bookmarks_folder_idx` ON `bookmarks` (`folder_id`);--> statement-breakpoint
ALTER TABLE `likes` ADD `note_id` integer GENERATED ALWAYS AS (case when "kind" = 'note' then "target_id" end) VIRTUAL REFERENCES notes(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `likes` ADD `reply_id` integer GENERATED ALWAYS AS (case when "kind" = 'reply' then "target_id" end) VIRTUAL REFERENCES replies(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `likes` ADD `folder_id` integer GENERATED ALWAYS AS (case when "kind" in ('company', 'project', 'skill') then "target_id" end) VIRTUAL REFERENCES folders(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `likes_note_idx` ON `likes` (`note_id`);--> statement-breakpoint
CREATE INDEX `likes_reply_idx` ON `likes` (`reply_id`);--> statement-breakpoint
CREATE INDEX `likes_folder_idx` ON `likes` (`folder_id`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `note_id` integer GENERATED ALWAYS AS (case when "tblname" = 'note' then "rowid" end) VIRTUAL REFERENCES notes(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `notifications` ADD `reply_id` integer GENERATED ALWAYS AS (case when "tblname" = 'reply' then "rowid" end) VIRTUAL REFERENCES replies(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `notifications` ADD `folder_id` integer GENERATED ALWAYS AS (case when "tblname" in ('folder') then "rowid" end) VIRTUAL REFERENCES folders(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `notifications_note_idx` ON `notifications` (`note_id`);--> statement-breakpoint
CREATE INDEX `notifications_reply_idx` ON `notifications` (`reply_id`);--> statement-breakpoint
CREATE INDEX `notifications_folder_idx` ON `notifications` (`folder_id`);--> statement-breakpoint
ALTER TABLE `reports` ADD `note_id` integer GENERATED ALWAYS AS (case when "kind" = 'note' then "target_id" end) VIRTUAL REFERENCES notes(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `reports` ADD `reply_id` integer GENERATED ALWAYS AS (case when "kind" = 'reply' then "target_id" end) VIRTUAL REFERENCES replies(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `reports` ADD `folder_id` integer GENERATED ALWAYS AS (case when "kind" in ('company', 'project', 'skill') then "target_id" end) VIRTUAL REFERENCES folders(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `reports_note_idx` ON `reports` (`note_id`);--> statement-breakpoint
CREATE INDEX `reports_reply_idx` ON `reports` (`reply_id`);--> statement-breakpoint
CREATE INDEX `reports_folder_idx` ON `reports` (`folder_id`);