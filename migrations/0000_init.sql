CREATE TABLE `folder_labels` (
	`folder_id` integer NOT NULL,
	`label` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`folder_id`, `label`),
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `folder_notes` (
	`folder_id` integer NOT NULL,
	`note_id` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`note_created_at` integer NOT NULL,
	PRIMARY KEY(`folder_id`, `note_id`),
	FOREIGN KEY (`folder_id`) REFERENCES `folders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `folder_notes_note_idx` ON `folder_notes` (`note_id`);--> statement-breakpoint
CREATE INDEX `folder_notes_folder_created_idx` ON `folder_notes` (`folder_id`,`note_created_at`,`note_id`);--> statement-breakpoint
CREATE INDEX `folder_notes_folder_label_created_idx` ON `folder_notes` (`folder_id`,`label`,`note_created_at`,`note_id`);--> statement-breakpoint
CREATE TABLE `folders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`descr` text DEFAULT '' NOT NULL,
	`link` text DEFAULT '' NOT NULL,
	`logo` text DEFAULT '' NOT NULL,
	`notenum` integer DEFAULT 0 NOT NULL,
	`noted_at` integer DEFAULT 0 NOT NULL,
	`likenum` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `folders_user_slug_uq` ON `folders` (`user_id`,`slug`);--> statement-breakpoint
CREATE UNIQUE INDEX `folders_user_type_name_uq` ON `folders` (`user_id`,lower("type"),lower("name"));--> statement-breakpoint
CREATE INDEX `folders_user_type_idx` ON `folders` (`user_id`,`type`,`id`);--> statement-breakpoint
CREATE INDEX `folders_user_noted_idx` ON `folders` (`user_id`,`noted_at`,`id`);--> statement-breakpoint
CREATE TABLE `note_tags` (
	`tag` text NOT NULL,
	`note_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`tag`, `note_id`),
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `note_tags_tag_created_idx` ON `note_tags` (`tag`,`created_at`,`note_id`);--> statement-breakpoint
CREATE INDEX `note_tags_note_idx` ON `note_tags` (`note_id`);--> statement-breakpoint
CREATE TABLE `notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` integer DEFAULT 0 NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`txt` text DEFAULT '' NOT NULL,
	`imgs` text DEFAULT '' NOT NULL,
	`video` text DEFAULT '' NOT NULL,
	`renote_id` integer,
	`renum` integer DEFAULT 0 NOT NULL,
	`repnum` integer DEFAULT 0 NOT NULL,
	`likenum` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`noted_at` integer NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`renote_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `notes_created_idx` ON `notes` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_user_created_idx` ON `notes` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_user_label_created_idx` ON `notes` (`user_id`,`label`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_label_created_idx` ON `notes` (`label`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notes_renote_idx` ON `notes` (`renote_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notes_one_renote_uq` ON `notes` (`user_id`,`renote_id`) WHERE kind = 1;--> statement-breakpoint
CREATE TABLE `uploads` (
	`key` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`content_type` text NOT NULL,
	`max_size` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`uploaded_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `uploads_user_idx` ON `uploads` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `bookmarks` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `target_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bookmarks_user_kind_created_idx` ON `bookmarks` (`user_id`,`kind`,`created_at`,`target_id`);--> statement-breakpoint
CREATE INDEX `bookmarks_target_idx` ON `bookmarks` (`kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `follows` (
	`follower_id` integer NOT NULL,
	`followee_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`follower_id`, `followee_id`),
	FOREIGN KEY (`follower_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`followee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `follows_follower_created_idx` ON `follows` (`follower_id`,`created_at`,`followee_id`);--> statement-breakpoint
CREATE INDEX `follows_followee_created_idx` ON `follows` (`followee_id`,`created_at`,`follower_id`);--> statement-breakpoint
CREATE TABLE `likes` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`user_id`, `kind`, `target_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `likes_target_idx` ON `likes` (`kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`actor_id` integer NOT NULL,
	`action` text NOT NULL,
	`tblname` text DEFAULT '' NOT NULL,
	`rowid` integer DEFAULT 0 NOT NULL,
	`extra` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_created_idx` ON `notifications` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `notifications_actor_idx` ON `notifications` (`actor_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_once_uq` ON `notifications` (`user_id`,`actor_id`,`action`,`tblname`,`rowid`);--> statement-breakpoint
CREATE TABLE `replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`note_id` integer NOT NULL,
	`parent` integer NOT NULL,
	`content` text NOT NULL,
	`txt` text DEFAULT '' NOT NULL,
	`likenum` integer DEFAULT 0 NOT NULL,
	`repnum` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`note_id`) REFERENCES `notes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `replies_parent_created_idx` ON `replies` (`parent`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `replies_note_idx` ON `replies` (`note_id`);--> statement-breakpoint
CREATE INDEX `replies_user_idx` ON `replies` (`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`reason` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_once_uq` ON `reports` (`user_id`,`kind`,`target_id`);--> statement-breakpoint
CREATE INDEX `reports_created_idx` ON `reports` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `reports_target_idx` ON `reports` (`kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `user_labels` (
	`user_id` integer NOT NULL,
	`label` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `label`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `user_types` (
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `type`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`fullname` text NOT NULL,
	`password_hash` text,
	`google_sub` text,
	`avatar` text DEFAULT '' NOT NULL,
	`cover` text DEFAULT '' NOT NULL,
	`descr` text DEFAULT '' NOT NULL,
	`confirmed` integer DEFAULT false NOT NULL,
	`session_epoch` integer DEFAULT 0 NOT NULL,
	`following_num` integer DEFAULT 0 NOT NULL,
	`follower_num` integer DEFAULT 0 NOT NULL,
	`note_num` integer DEFAULT 0 NOT NULL,
	`noti_num` integer DEFAULT 0 NOT NULL,
	`invitation_num` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_uq` ON `users` (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_google_sub_uq` ON `users` (`google_sub`);