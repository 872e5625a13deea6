-- Sign-in sessions moved to Workers KV (worker/lib/sessions.ts). Nothing is moved: everyone signs in once again.
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `session_epoch`;