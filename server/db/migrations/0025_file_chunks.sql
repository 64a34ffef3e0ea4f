CREATE TABLE `file_chunks` (
	`sha256` text NOT NULL,
	`chunk` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`sha256`, `chunk`)
);
