-- Notes and replies share one id space: replies are made with ids from the worker (lib/ids.ts,
-- above 2^47), notes keep theirs (counted from 1), and the replies made before move to 2^40 + their
-- id, out of the notes' range. Every row that names a reply by id moves with it; the full-text
-- index is rebuilt on the new ids. An idempotency key's Mastodon status id (note 2n, reply 2m + 1)
-- becomes the row id too. The foreign keys are checked once, at the end.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
UPDATE `likes` SET `target_id` = `target_id` + 1099511627776 WHERE `kind` = 'reply';--> statement-breakpoint
UPDATE `bookmarks` SET `target_id` = `target_id` + 1099511627776 WHERE `kind` = 'reply';--> statement-breakpoint
UPDATE `reports` SET `target_id` = `target_id` + 1099511627776 WHERE `kind` = 'reply';--> statement-breakpoint
UPDATE `notifications` SET `target_id` = `target_id` + 1099511627776 WHERE `tblname` = 'reply';--> statement-breakpoint
UPDATE `remote_objects` SET `row_id` = `row_id` + 1099511627776 WHERE `kind` = 'reply';--> statement-breakpoint
UPDATE `moderation_log` SET `target_id` = `target_id` + 1099511627776 WHERE `kind` = 'reply';--> statement-breakpoint
UPDATE `import_rows` SET `target` = `target` + 1099511627776 WHERE `target_kind` = 'reply';--> statement-breakpoint
UPDATE `masto_idempotency` SET `status_id` = CASE WHEN cast(`status_id` AS integer) % 2 = 0
  THEN cast(cast(`status_id` AS integer) / 2 AS text)
  ELSE cast(1099511627776 + (cast(`status_id` AS integer) - 1) / 2 AS text) END;--> statement-breakpoint
UPDATE `replies` SET `id` = `id` + 1099511627776, `parent_reply_id` = `parent_reply_id` + 1099511627776;--> statement-breakpoint
INSERT INTO replies_fts(replies_fts) VALUES ('rebuild');
