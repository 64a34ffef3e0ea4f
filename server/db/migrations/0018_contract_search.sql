-- Contract search through an FTS5 trigram index (docs/decisions.md, "Contracts", search): one row per
-- contract, rowid = contract id; `name` holds the folded contract name, `parties` each party's folded
-- name, e-mail and phone, one per line. Triggers keep it in the same transaction as the rows. The text
-- is folded by sd_fold (JavaScript's toLowerCase, the same as name_folded), so the index is
-- case-sensitive over folded text and a search folds its query the same way. The table keeps its text:
-- a search finds candidates by its rarest trigrams and checks each one's text.
CREATE VIRTUAL TABLE contract_search USING fts5(name, parties, tokenize = 'trigram case_sensitive 1');
--> statement-breakpoint
CREATE VIEW contract_search_source AS
  SELECT c.id AS id, c.name_folded AS name,
    coalesce((SELECT group_concat(sd_fold(p.name) || char(10) || sd_fold(p.email) || char(10) || p.mobile_phone, char(10))
      FROM parties p WHERE p.contract_id = c.id), '') AS parties
  FROM contracts c;
--> statement-breakpoint
CREATE TRIGGER contract_search_contract_insert AFTER INSERT ON contracts BEGIN
  INSERT INTO contract_search (rowid, name, parties) VALUES (new.id, new.name_folded, '');
END;
--> statement-breakpoint
CREATE TRIGGER contract_search_contract_rename AFTER UPDATE OF name_folded ON contracts BEGIN
  DELETE FROM contract_search WHERE rowid = old.id;
  INSERT INTO contract_search (rowid, name, parties) SELECT id, name, parties FROM contract_search_source WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER contract_search_contract_delete AFTER DELETE ON contracts BEGIN
  DELETE FROM contract_search WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER contract_search_party_insert AFTER INSERT ON parties BEGIN
  DELETE FROM contract_search WHERE rowid = new.contract_id;
  INSERT INTO contract_search (rowid, name, parties) SELECT id, name, parties FROM contract_search_source WHERE id = new.contract_id;
END;
--> statement-breakpoint
CREATE TRIGGER contract_search_party_update AFTER UPDATE OF name, email, mobile_phone, contract_id ON parties BEGIN
  DELETE FROM contract_search WHERE rowid IN (old.contract_id, new.contract_id);
  INSERT INTO contract_search (rowid, name, parties)
    SELECT id, name, parties FROM contract_search_source WHERE id IN (old.contract_id, new.contract_id);
END;
--> statement-breakpoint
-- A cascade from a deleted contract finds no contract row and leaves the index row deleted.
CREATE TRIGGER contract_search_party_delete AFTER DELETE ON parties BEGIN
  DELETE FROM contract_search WHERE rowid = old.contract_id;
  INSERT INTO contract_search (rowid, name, parties) SELECT id, name, parties FROM contract_search_source WHERE id = old.contract_id;
END;
--> statement-breakpoint
INSERT INTO contract_search (rowid, name, parties) SELECT id, name, parties FROM contract_search_source;
