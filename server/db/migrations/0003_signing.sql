CREATE TABLE `party_codes` (
	`party_id` integer PRIMARY KEY NOT NULL,
	`code_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` integer NOT NULL,
	`sends_in_window` integer DEFAULT 1 NOT NULL,
	`window_started_at` integer NOT NULL,
	FOREIGN KEY (`party_id`) REFERENCES `parties`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `parties` ADD `signature_name` text;--> statement-breakpoint
ALTER TABLE `parties` ADD `answer_authentication` text;