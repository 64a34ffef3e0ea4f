-- Hand-written: parties keep only a hash of their link token. Existing tokens stay in
-- sign_token_hash (renamed) until the server's first start, which seals each one under
-- DATA_DIR/keys and replaces it by its hash (server/secrets/seal-at-rest.ts):
-- that step needs the key, which SQL does not have.
DROP INDEX `parties_sign_token`;--> statement-breakpoint
ALTER TABLE `parties` RENAME COLUMN `sign_token` TO `sign_token_hash`;--> statement-breakpoint
ALTER TABLE `parties` ADD `sign_nonce` text;--> statement-breakpoint
ALTER TABLE `parties` ADD `sign_token_sealed` text;--> statement-breakpoint
CREATE UNIQUE INDEX `parties_sign_token_hash` ON `parties` (`sign_token_hash`);
