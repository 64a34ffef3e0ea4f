CREATE TABLE `contract_role_fields` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contract_id` integer NOT NULL,
	`role` integer NOT NULL,
	`pdf_page` integer NOT NULL,
	`pos_x` real NOT NULL,
	`pos_y` real NOT NULL,
	`width` real NOT NULL,
	`height` real NOT NULL,
	`type` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`input_required` integer DEFAULT true NOT NULL,
	`render_when_signed` integer DEFAULT true NOT NULL,
	`tag_box` text,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contract_role_fields_contract` ON `contract_role_fields` (`contract_id`,`role`);--> statement-breakpoint
CREATE TABLE `template_fields` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`template_id` integer NOT NULL,
	`role` integer NOT NULL,
	`pdf_page` integer NOT NULL,
	`pos_x` real NOT NULL,
	`pos_y` real NOT NULL,
	`width` real NOT NULL,
	`height` real NOT NULL,
	`type` text NOT NULL,
	`content` text DEFAULT '' NOT NULL,
	`input_required` integer DEFAULT true NOT NULL,
	`render_when_signed` integer DEFAULT true NOT NULL,
	`tag_box` text,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `contract_templates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `template_fields_template` ON `template_fields` (`template_id`,`id`);--> statement-breakpoint
CREATE TABLE `bulk_send_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bulk_send_id` integer NOT NULL,
	`line` integer NOT NULL,
	`contract_name` text NOT NULL,
	`parties` text NOT NULL,
	`state` text NOT NULL,
	`error` text,
	`contract_id` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`bulk_send_id`) REFERENCES `bulk_sends`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `bulk_send_rows_batch` ON `bulk_send_rows` (`bulk_send_id`,`id`);--> statement-breakpoint
CREATE TABLE `bulk_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`template_id` integer,
	`template_name` text NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`template_id`) REFERENCES `contract_templates`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bulk_sends_user` ON `bulk_sends` (`created_by`,`id`);--> statement-breakpoint
ALTER TABLE `contract_templates` ADD `pdf_file_id` integer REFERENCES stored_files(id);--> statement-breakpoint
ALTER TABLE `contract_templates` ADD `page_sizes` text;--> statement-breakpoint
ALTER TABLE `annotations` ADD `tag_box` text;