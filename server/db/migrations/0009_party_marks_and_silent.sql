CREATE TABLE `party_marks` (
	`party_id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`face` text NOT NULL,
	`signature_png` blob,
	`initials_png` blob,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`party_id`) REFERENCES `parties`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `contracts` ADD `is_silent` integer DEFAULT false NOT NULL;