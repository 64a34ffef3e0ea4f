CREATE TABLE `annotation_files` (
	`annotation_id` integer PRIMARY KEY NOT NULL,
	`file_id` integer NOT NULL,
	FOREIGN KEY (`annotation_id`) REFERENCES `annotations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`file_id`) REFERENCES `stored_files`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `annotations` ADD `label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `annotations` ADD `hint` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `annotations` ADD `options` text;--> statement-breakpoint
ALTER TABLE `contract_role_fields` ADD `label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `contract_role_fields` ADD `hint` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `contract_role_fields` ADD `options` text;--> statement-breakpoint
ALTER TABLE `template_fields` ADD `label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `template_fields` ADD `hint` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `template_fields` ADD `options` text;