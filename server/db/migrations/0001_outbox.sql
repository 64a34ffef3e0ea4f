CREATE TABLE `outbox_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`recipients` text NOT NULL,
	`subject` text,
	`text` text NOT NULL,
	`html` text,
	`from_name` text,
	`reply_to` text,
	`purpose` text NOT NULL,
	`contract_id` integer,
	`party_id` integer,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`round_attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`response` text,
	`message_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`sent_at` integer,
	`next_attempt_at` integer
);
--> statement-breakpoint
CREATE INDEX `outbox_messages_state` ON `outbox_messages` (`state`,`id`);--> statement-breakpoint
CREATE INDEX `outbox_messages_channel` ON `outbox_messages` (`channel`,`id`);--> statement-breakpoint
CREATE INDEX `outbox_messages_party` ON `outbox_messages` (`party_id`);--> statement-breakpoint
CREATE INDEX `outbox_messages_contract` ON `outbox_messages` (`contract_id`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
