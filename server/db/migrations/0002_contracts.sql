CREATE TABLE `activity_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contract_id` integer NOT NULL,
	`event` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`user_id` integer,
	`user_agent` text DEFAULT '' NOT NULL,
	`ip_address` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `activity_log_contract_id` ON `activity_log` (`contract_id`,`id`);--> statement-breakpoint
CREATE TABLE `annotations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contract_id` integer NOT NULL,
	`party_id` integer NOT NULL,
	`pdf_page` integer NOT NULL,
	`pos_x` real NOT NULL,
	`pos_y` real NOT NULL,
	`width` real NOT NULL,
	`height` real NOT NULL,
	`type` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`input_required` integer DEFAULT true NOT NULL,
	`render_when_signed` integer DEFAULT true NOT NULL,
	`value` text,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`party_id`) REFERENCES `parties`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `annotations_contract_id` ON `annotations` (`contract_id`,`id`);--> statement-breakpoint
CREATE INDEX `annotations_party` ON `annotations` (`party_id`);--> statement-breakpoint
CREATE TABLE `attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contract_id` integer NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`file_id` integer NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `stored_files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `attachments_contract_id` ON `attachments` (`contract_id`,`id`);--> statement-breakpoint
CREATE INDEX `attachments_file` ON `attachments` (`file_id`);--> statement-breakpoint
CREATE TABLE `contract_counts` (
	`scope` text PRIMARY KEY NOT NULL,
	`n` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `contracts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`name_folded` text DEFAULT '' NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`email_invite_content` text DEFAULT '' NOT NULL,
	`email_from_name` text DEFAULT '' NOT NULL,
	`email_reply_to` text DEFAULT '' NOT NULL,
	`party_order_defined` integer DEFAULT false NOT NULL,
	`show_identity_number` integer DEFAULT false NOT NULL,
	`require_auth` text DEFAULT 'NONE' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`is_signed` integer GENERATED ALWAYS AS ((status = 'signed')) VIRTUAL NOT NULL,
	`is_unsigned` integer GENERATED ALWAYS AS ((status <> 'signed')) VIRTUAL NOT NULL,
	`source` text NOT NULL,
	`template_id` integer,
	`header` text DEFAULT '' NOT NULL,
	`footer` text DEFAULT '' NOT NULL,
	`footer_type` text DEFAULT 'NONE' NOT NULL,
	`original_file_id` integer NOT NULL,
	`signed_file_id` integer,
	`page_sizes` text NOT NULL,
	`sent_at` integer,
	`expire_at` integer,
	`signed_at` integer,
	`rejected_at` integer,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `contract_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`original_file_id`) REFERENCES `stored_files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`signed_file_id`) REFERENCES `stored_files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contracts_status_id` ON `contracts` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_status_name` ON `contracts` (`status`,`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_name_id` ON `contracts` (`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_signed_id` ON `contracts` (`is_signed`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_signed_name` ON `contracts` (`is_signed`,`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_unsigned_id` ON `contracts` (`is_unsigned`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_unsigned_name` ON `contracts` (`is_unsigned`,`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_id` ON `contracts` (`created_by`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_status_id` ON `contracts` (`created_by`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_name` ON `contracts` (`created_by`,`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_signed_id` ON `contracts` (`created_by`,`is_signed`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_original_file` ON `contracts` (`original_file_id`);--> statement-breakpoint
CREATE INDEX `contracts_signed_file` ON `contracts` (`signed_file_id`);--> statement-breakpoint
CREATE INDEX `contracts_template` ON `contracts` (`template_id`);--> statement-breakpoint
CREATE TABLE `parties` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contract_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`mobile_phone` text DEFAULT '' NOT NULL,
	`identity_number` text DEFAULT '' NOT NULL,
	`delivery_method` text DEFAULT 'EMAIL' NOT NULL,
	`sign_type` text DEFAULT 'DEFAULT' NOT NULL,
	`sign_order` integer DEFAULT 0 NOT NULL,
	`user_id` integer,
	`sign_token` text NOT NULL,
	`is_accept` integer DEFAULT false NOT NULL,
	`sign_time` integer,
	`reject_cause` text,
	`rejected_at` integer,
	`invited_at` integer,
	`opened_at` integer,
	`answer_ip_address` text,
	`answer_user_agent` text,
	`email_sent` integer DEFAULT false NOT NULL,
	`email_opened` integer DEFAULT false NOT NULL,
	`email_clicked` integer DEFAULT false NOT NULL,
	`email_bounced` integer DEFAULT false NOT NULL,
	`email_hardbounced` integer DEFAULT false NOT NULL,
	`email_softbounced` integer DEFAULT false NOT NULL,
	`email_blocked` integer DEFAULT false NOT NULL,
	`email_unsub` integer DEFAULT false NOT NULL,
	`email_spam` integer DEFAULT false NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `parties_contract_id` ON `parties` (`contract_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `parties_sign_token` ON `parties` (`sign_token`);--> statement-breakpoint
CREATE INDEX `parties_user` ON `parties` (`user_id`);--> statement-breakpoint
CREATE TABLE `stored_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`data` blob NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stored_files_sha256` ON `stored_files` (`sha256`,`content_type`);