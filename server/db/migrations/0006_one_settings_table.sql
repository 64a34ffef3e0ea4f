-- The general settings (public base URL, time zone) join the one settings table; a key set in both keeps the general one.
INSERT INTO `settings` (`key`, `value`, `updated_at`) SELECT `key`, `value`, `updated_at` FROM `general_settings` WHERE true
ON CONFLICT (`key`) DO UPDATE SET `value` = excluded.`value`, `updated_at` = excluded.`updated_at`;--> statement-breakpoint
DROP TABLE `general_settings`;
