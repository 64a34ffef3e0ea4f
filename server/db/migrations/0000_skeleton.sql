CREATE TABLE `api_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`secret_hash` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`rate_limit` integer,
	`owner_user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_public_id` ON `api_tokens` (`public_id`);--> statement-breakpoint
CREATE INDEX `api_tokens_owner` ON `api_tokens` (`owner_user_id`);--> statement-breakpoint
CREATE TABLE `office` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`default_rate_limit` integer DEFAULT 30 NOT NULL,
	`set_up_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`email` text NOT NULL,
	`firstname` text DEFAULT '' NOT NULL,
	`lastname` text DEFAULT '' NOT NULL,
	`password_hash` text,
	`permission_template` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_live` ON `users` (`username`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE TABLE `contract_templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`is_published` integer DEFAULT false NOT NULL,
	`header` text DEFAULT '' NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`footer` text DEFAULT '' NOT NULL,
	`footer_type` text DEFAULT 'SIMPLE' NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`queue` text NOT NULL,
	`ref_id` integer NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`run_at` integer NOT NULL,
	`lease_until` integer,
	`claim_token` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `jobs_due` ON `jobs` (`queue`,`status`,`run_at`);--> statement-breakpoint
CREATE INDEX `jobs_ref` ON `jobs` (`queue`,`ref_id`);