CREATE TABLE `sso_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`state_hash` text NOT NULL,
	`browser_hash` text NOT NULL,
	`code_verifier` text NOT NULL,
	`nonce` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_attempts_state_hash` ON `sso_attempts` (`state_hash`);--> statement-breakpoint
CREATE INDEX `sso_attempts_expires` ON `sso_attempts` (`expires_at`);