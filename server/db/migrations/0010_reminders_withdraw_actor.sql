ALTER TABLE `activity_log` ADD `party_id` integer;--> statement-breakpoint
ALTER TABLE `activity_log` ADD `detail` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts` ADD `reminder_interval_days` integer;--> statement-breakpoint
ALTER TABLE `contracts` ADD `reminder_max_count` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts` ADD `expiry_warning_days` integer;--> statement-breakpoint
ALTER TABLE `contracts` ADD `next_reminder_at` integer;--> statement-breakpoint
ALTER TABLE `contracts` ADD `expiry_warning_at` integer;--> statement-breakpoint
ALTER TABLE `contracts` ADD `expiry_warned_at` integer;--> statement-breakpoint
ALTER TABLE `contracts` ADD `withdrawn_at` integer;--> statement-breakpoint
ALTER TABLE `contracts` ADD `withdrawn_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `contracts` ADD `withdraw_reason` text;--> statement-breakpoint
ALTER TABLE `parties` ADD `reminders_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `parties` ADD `last_reminded_at` integer;