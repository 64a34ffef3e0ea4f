CREATE TABLE `contract_seals` (
	`contract_id` integer PRIMARY KEY NOT NULL,
	`sealed_sha256` text NOT NULL,
	`sealed_size` integer NOT NULL,
	`sealed_content_sha256` text,
	`seal_certificate_sha256` text,
	`chain_head_sequence` integer,
	`chain_head_hash` text,
	`timestamp_status` text DEFAULT 'none' NOT NULL,
	`tsa_url` text,
	`timestamp_time` integer,
	`clock_offset_ms` integer,
	`timestamp_attempts` integer DEFAULT 0 NOT NULL,
	`timestamp_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contract_seals_sha256` ON `contract_seals` (`sealed_sha256`);--> statement-breakpoint
CREATE INDEX `contract_seals_content_sha256` ON `contract_seals` (`sealed_content_sha256`);--> statement-breakpoint
ALTER TABLE `activity_log` ADD `sequence` integer;--> statement-breakpoint
ALTER TABLE `activity_log` ADD `details` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `activity_log` ADD `previous_hash` text;--> statement-breakpoint
ALTER TABLE `activity_log` ADD `hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `activity_log_chain` ON `activity_log` (`contract_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `activity_log_unchained` ON `activity_log` (`contract_id`,`id`) WHERE hash IS NULL;