CREATE TABLE `contract_metadata` (
	`contract_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`contract_id`, `key`),
	FOREIGN KEY (`contract_id`) REFERENCES `contracts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contract_metadata_key_value` ON `contract_metadata` (`key`,`value`,`contract_id`);--> statement-breakpoint
ALTER TABLE `contracts` ADD `allow_delegation` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `contracts_updated_at` ON `contracts` (`updated_at`);