-- A like moves the likenum of what it likes, by the row itself: whatever inserts or deletes one (a
-- like, an unlike, an account's deletion) counts exactly, and no write path moves likenum by hand.
-- A like is about one of the three (note_id, reply_id, folder_id: the others are null).
CREATE TRIGGER `likes_count_in` AFTER INSERT ON `likes`
BEGIN
  UPDATE notes SET likenum = likenum + 1 WHERE id = new.note_id;
  UPDATE replies SET likenum = likenum + 1 WHERE id = new.reply_id;
  UPDATE folders SET likenum = likenum + 1 WHERE id = new.folder_id;
END;--> statement-breakpoint
CREATE TRIGGER `likes_count_out` AFTER DELETE ON `likes`
BEGIN
  UPDATE notes SET likenum = likenum - 1 WHERE id = old.note_id;
  UPDATE replies SET likenum = likenum - 1 WHERE id = old.reply_id;
  UPDATE folders SET likenum = likenum - 1 WHERE id = old.folder_id;
END;
