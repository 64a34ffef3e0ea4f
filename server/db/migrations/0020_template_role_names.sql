ALTER TABLE `contract_templates` ADD `role_names` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `contracts` ADD `role_names` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `parties` ADD `role` integer;--> statement-breakpoint
ALTER TABLE `parties` ADD `role_name` text;