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
