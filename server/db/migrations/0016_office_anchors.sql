CREATE TABLE `anchor_heads` (
	`anchor_id` integer NOT NULL,
	`chain` text NOT NULL,
	`sequence` integer NOT NULL,
	`hash` text NOT NULL,
	PRIMARY KEY(`anchor_id`, `chain`),
	FOREIGN KEY (`anchor_id`) REFERENCES `office_anchors`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `anchor_heads_chain` ON `anchor_heads` (`chain`,`anchor_id`);--> statement-breakpoint
CREATE TABLE `office_anchors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sequence` integer NOT NULL,
	`created_at` integer NOT NULL,
	`activity_id_through` integer NOT NULL,
	`office_log_id_through` integer NOT NULL,
	`heads_root` text NOT NULL,
	`head_count` integer NOT NULL,
	`previous_hash` text NOT NULL,
	`hash` text NOT NULL,
	`token` blob NOT NULL,
	`token_time` integer NOT NULL,
	`tsa_url` text NOT NULL,
	`clock_offset_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `office_anchors_sequence` ON `office_anchors` (`sequence`);--> statement-breakpoint
CREATE TABLE `office_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sequence` integer NOT NULL,
	`event` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`user_id` integer,
	`user_agent` text DEFAULT '' NOT NULL,
	`ip_address` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`details` text DEFAULT '{}' NOT NULL,
	`previous_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `office_log_sequence` ON `office_log` (`sequence`);