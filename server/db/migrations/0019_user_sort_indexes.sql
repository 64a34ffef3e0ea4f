CREATE INDEX `contracts_user_status_name` ON `contracts` (`created_by`,`status`,`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_signed_name` ON `contracts` (`created_by`,`is_signed`,`name_folded`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_unsigned_id` ON `contracts` (`created_by`,`is_unsigned`,`id`);--> statement-breakpoint
CREATE INDEX `contracts_user_unsigned_name` ON `contracts` (`created_by`,`is_unsigned`,`name_folded`,`id`);