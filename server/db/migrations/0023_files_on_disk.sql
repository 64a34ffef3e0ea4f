CREATE TABLE `unclaimed_files` (
	`sha256` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `stored_files` ADD `in_files` integer DEFAULT false NOT NULL;