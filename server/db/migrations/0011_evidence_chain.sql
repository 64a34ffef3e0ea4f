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
CREATE INDEX `activity_log_unchained` ON `activity_log` (`contract_id`,`id`) WHERE hash IS NULL;--> statement-breakpoint
-- Hand-written: the acting party of entries written before party_id existed, as the activity
-- log used to guess it when shown (a party's own request has an address and names the party),
-- set before the start-up step chains these entries, so the hashed actor is the one shown.
UPDATE `activity_log` SET `party_id` = CAST(substr(`subject`, length('/api/contracts/' || `contract_id` || '/parties/') + 1) AS integer)
WHERE `user_id` IS NULL AND `party_id` IS NULL AND `ip_address` <> ''
  AND substr(`subject`, 1, length('/api/contracts/' || `contract_id` || '/parties/')) = '/api/contracts/' || `contract_id` || '/parties/'
  AND substr(`subject`, length('/api/contracts/' || `contract_id` || '/parties/') + 1) GLOB '[1-9]*'
  AND substr(`subject`, length('/api/contracts/' || `contract_id` || '/parties/') + 1) NOT GLOB '*[^0-9]*';--> statement-breakpoint
-- Hand-written: the old one-text `detail` into the `details` object, under the keys the log uses now.
UPDATE `activity_log` SET `details` = CASE
  WHEN `event` IN ('party.invited', 'party.reminded', 'party.expiry_warned', 'party.code_sent', 'party.withdrawal_sent') THEN json_object('channel', `detail`)
  WHEN `event` = 'contract.withdrawn' THEN json_object('reason', `detail`)
  WHEN `event` = 'party.rejected' THEN json_object('cause', `detail`)
  WHEN `event` IN ('party.signed', 'party.approved') AND `detail` = 'auto_sign' THEN json_object('auto_sign', 'true')
  WHEN `event` = 'contract.created' AND `detail` = 'duplicate' THEN json_object('copy_of', `subject`)
  ELSE json_object('note', `detail`)
END
WHERE `detail` <> '';--> statement-breakpoint
ALTER TABLE `activity_log` DROP COLUMN `detail`;