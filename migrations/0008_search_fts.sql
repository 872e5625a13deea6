-- Full-text search (issue 18): FTS5 indexes over notes, replies and folders, kept in sync by
-- triggers so every write path (services, scripts, cascaded deletes) updates them in its own
-- statement. External content: the text lives once, in its table; the index holds only tokens.
-- `wrangler d1 export` cannot export virtual tables: `npm run reindex` (-- --remote) runs this
-- file again after an import (everything here is IF NOT EXISTS, and 'rebuild' refills the index).
CREATE VIRTUAL TABLE IF NOT EXISTS `notes_fts` USING fts5(txt, content='notes', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `notes_fts_ai` AFTER INSERT ON `notes` BEGIN
  INSERT INTO notes_fts(rowid, txt) VALUES (new.id, new.txt);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `notes_fts_ad` AFTER DELETE ON `notes` BEGIN
  INSERT INTO notes_fts(notes_fts, rowid, txt) VALUES ('delete', old.id, old.txt);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `notes_fts_au` AFTER UPDATE OF txt ON `notes` WHEN old.txt IS NOT new.txt BEGIN
  INSERT INTO notes_fts(notes_fts, rowid, txt) VALUES ('delete', old.id, old.txt);
  INSERT INTO notes_fts(rowid, txt) VALUES (new.id, new.txt);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE IF NOT EXISTS `replies_fts` USING fts5(txt, content='replies', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `replies_fts_ai` AFTER INSERT ON `replies` BEGIN
  INSERT INTO replies_fts(rowid, txt) VALUES (new.id, new.txt);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `replies_fts_ad` AFTER DELETE ON `replies` BEGIN
  INSERT INTO replies_fts(replies_fts, rowid, txt) VALUES ('delete', old.id, old.txt);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `replies_fts_au` AFTER UPDATE OF txt ON `replies` WHEN old.txt IS NOT new.txt BEGIN
  INSERT INTO replies_fts(replies_fts, rowid, txt) VALUES ('delete', old.id, old.txt);
  INSERT INTO replies_fts(rowid, txt) VALUES (new.id, new.txt);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE IF NOT EXISTS `folders_fts` USING fts5(name, descr, content='folders', content_rowid='id', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `folders_fts_ai` AFTER INSERT ON `folders` BEGIN
  INSERT INTO folders_fts(rowid, name, descr) VALUES (new.id, new.name, new.descr);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `folders_fts_ad` AFTER DELETE ON `folders` BEGIN
  INSERT INTO folders_fts(folders_fts, rowid, name, descr) VALUES ('delete', old.id, old.name, old.descr);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `folders_fts_au` AFTER UPDATE OF name, descr ON `folders` WHEN old.name IS NOT new.name OR old.descr IS NOT new.descr BEGIN
  INSERT INTO folders_fts(folders_fts, rowid, name, descr) VALUES ('delete', old.id, old.name, old.descr);
  INSERT INTO folders_fts(rowid, name, descr) VALUES (new.id, new.name, new.descr);
END;
--> statement-breakpoint
-- A folder's name weighs more than its description in the ranking.
INSERT INTO folders_fts(folders_fts, rank) VALUES ('rank', 'bm25(5.0, 1.0)');
--> statement-breakpoint
INSERT INTO notes_fts(notes_fts) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO replies_fts(replies_fts) VALUES ('rebuild');
--> statement-breakpoint
INSERT INTO folders_fts(folders_fts) VALUES ('rebuild');
--> statement-breakpoint
-- Each index's term list: a long last word of a query names its first completions from here
-- instead of asking FTS5 for a prefix it has no index for (search.schema.ts, matchPlan).
CREATE VIRTUAL TABLE IF NOT EXISTS `notes_fts_terms` USING fts5vocab(notes_fts, 'row');
--> statement-breakpoint
CREATE VIRTUAL TABLE IF NOT EXISTS `replies_fts_terms` USING fts5vocab(replies_fts, 'row');
--> statement-breakpoint
CREATE VIRTUAL TABLE IF NOT EXISTS `folders_fts_terms` USING fts5vocab(folders_fts, 'row');
