CREATE TABLE `sealed_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`sealed` blob NOT NULL,
	`updated_at` integer NOT NULL
);
