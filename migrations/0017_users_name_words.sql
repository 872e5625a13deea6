-- People search by any word of a name ("Lovelace" finds Ada Lovelace): an FTS5 index over users'
-- names, kept by triggers as the other *_fts tables are (0008_search_fts.sql). Only prefix queries
-- of whole words are asked of it, so it keeps prefix indexes for the short ones.
CREATE VIRTUAL TABLE IF NOT EXISTS `users_fts` USING fts5(fullname, content='users', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `users_fts_ai` AFTER INSERT ON `users` BEGIN
  INSERT INTO users_fts(rowid, fullname) VALUES (new.id, new.fullname);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `users_fts_ad` AFTER DELETE ON `users` BEGIN
  INSERT INTO users_fts(users_fts, rowid, fullname) VALUES ('delete', old.id, old.fullname);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `users_fts_au` AFTER UPDATE OF fullname ON `users` WHEN old.fullname IS NOT new.fullname BEGIN
  INSERT INTO users_fts(users_fts, rowid, fullname) VALUES ('delete', old.id, old.fullname);
  INSERT INTO users_fts(rowid, fullname) VALUES (new.id, new.fullname);
END;
--> statement-breakpoint
INSERT INTO users_fts(users_fts) VALUES ('rebuild');
