ALTER TABLE `contract_seals` ADD `ltv_status` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `contract_seals` ADD `ltv_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `contract_seals` ADD `ltv_error` text;--> statement-breakpoint
ALTER TABLE `contract_seals` ADD `archive_time` integer;--> statement-breakpoint
ALTER TABLE `contract_seals` ADD `archive_expires_at` integer;