-- PostgreSQL's contract search (docs/decisions.md, "Contracts", search), the twin of SQLite's FTS5
-- table of the same name: one row per contract, id = contract id; `name` holds the folded contract
-- name, `parties` each party's folded name, e-mail and phone, one per line. The repositories write it
-- in the same transaction as the contract and party rows (contract-search-pg.ts), folded in JavaScript
-- as SQLite's index is (foldName), so that both dialects find the same contracts. pg_trgm's GIN
-- indexes answer LIKE '%…%' on the folded text. Hand-written: the table is PostgreSQL's alone (the
-- schema both dialects derive from has no place for it), and test/integration/schema-drift.test.ts
-- names it as such. pg_trgm is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE contract_search (
  id bigint PRIMARY KEY REFERENCES contracts (id) ON DELETE CASCADE,
  name text NOT NULL,
  parties text NOT NULL DEFAULT ''
);
--> statement-breakpoint
CREATE INDEX contract_search_name_trgm ON contract_search USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX contract_search_parties_trgm ON contract_search USING gin (parties gin_trgm_ops);
--> statement-breakpoint
-- Rows from before the table (no office ran on PostgreSQL before it; a test database may): folded by
-- ICU's lower case, which folds as JavaScript's does. Later writes fold in JavaScript.
INSERT INTO contract_search (id, name, parties)
  SELECT c.id, c.name_folded,
    coalesce((SELECT string_agg(lower(p.name COLLATE "und-x-icu") || chr(10) || lower(p.email COLLATE "und-x-icu")
      || chr(10) || p.mobile_phone, chr(10) ORDER BY p.id) FROM parties p WHERE p.contract_id = c.id), '')
  FROM contracts c;
