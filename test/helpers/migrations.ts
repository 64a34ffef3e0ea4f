import fs from 'node:fs';
import path from 'node:path';

/** The search triggers of 0018, dropped when they are still there. */
const dropSearchTriggers = [
  'contract_insert',
  'contract_rename',
  'contract_delete',
  'party_insert',
  'party_update',
  'party_delete',
].map((trigger) => `DROP TRIGGER IF EXISTS contract_search_${trigger};`);

/**
 * What each migration after 0012 made, undone, so that 0011 and 0012 can run again with every
 * later one after them; and the records of 0011 on. A new migration needs its line here (the
 * check says so).
 */
const UNDO_AFTER_0012: Record<string, string> = {
  '0013_idempotency_keys': 'DROP TABLE idempotency_keys;',
  '0014_webhook_consumer_events': 'ALTER TABLE webhook_consumers DROP COLUMN events;',
  '0015_contract_test_mode': 'ALTER TABLE contracts DROP COLUMN is_test;',
  '0016_office_anchors': 'DROP TABLE anchor_heads; DROP TABLE office_anchors; DROP TABLE office_log;',
  '0017_long_term_validation': ['ltv_status', 'ltv_attempts', 'ltv_error', 'archive_time', 'archive_expires_at']
    .map((column) => `ALTER TABLE contract_seals DROP COLUMN ${column};`)
    .join(' '),
  '0018_contract_search': dropSearchTriggers
    .concat(['DROP VIEW contract_search_source;', 'DROP TABLE contract_search;'])
    .join(' '),
  '0019_user_sort_indexes': ['status_name', 'signed_name', 'unsigned_id', 'unsigned_name']
    .map((name) => `DROP INDEX contracts_user_${name};`)
    .join(' '),
  // The search triggers (0018) call sd_fold, which only the server's connection has, and a
  // dropped column makes SQLite read every trigger of its table again: they go first.
  '0020_template_role_names': [
    ...dropSearchTriggers,
    'ALTER TABLE contract_templates DROP COLUMN role_names;',
    'ALTER TABLE contracts DROP COLUMN role_names;',
    'ALTER TABLE parties DROP COLUMN role;',
    'ALTER TABLE parties DROP COLUMN role_name;',
  ].join(' '),
  // A DROP COLUMN re-reads every trigger, and the search triggers call a function only the server
  // defines: they go first (0018's undo drops them only if they are still there).
  '0021_field_labels_and_answers': dropSearchTriggers
    .concat(
      ['annotations', 'contract_role_fields', 'template_fields'].flatMap((table) =>
        ['label', 'hint', 'options'].map((column) => `ALTER TABLE ${table} DROP COLUMN ${column};`),
      ),
    )
    .concat(['DROP TABLE annotation_files;'])
    .join(' '),
  // Dropping a contracts column re-reads its triggers, and 0018's call a function only the server's
  // connection has: they go first (0018's undo drops them only if they are still there).
  '0022_integrations': [
    ...dropSearchTriggers,
    'DROP INDEX contracts_updated_at; ALTER TABLE contracts DROP COLUMN allow_delegation; DROP TABLE contract_metadata;',
  ].join(' '),
  '0023_files_on_disk': [
    ...dropSearchTriggers,
    'DROP TABLE unclaimed_files; ALTER TABLE stored_files DROP COLUMN in_files;',
  ].join(' '),
  '0024_webhook_delivery_order': [...dropSearchTriggers, 'ALTER TABLE webhook_deliveries DROP COLUMN in_order;'].join(
    ' ',
  ),
  '0025_file_chunks': 'DROP TABLE file_chunks;',
  '0026_sealed_keys': 'DROP TABLE sealed_keys;',
  '0027_second_factors': 'DROP TABLE user_recovery_codes; DROP TABLE user_totp;',
  '0028_sso_attempts': 'DROP TABLE sso_attempts;',
};

const journal = () =>
  JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, '../../server/db/migrations/meta/_journal.json'), 'utf8'),
  ) as { entries: Array<{ tag: string; when: number }> };

/** When drizzle recorded a migration as run: its journal time. */
export const migrationTime = (number: string) =>
  journal().entries.find((entry) => entry.tag.startsWith(`${number}_`))?.when;

export function undoMigrationsAfter0012(): string {
  const later = journal().entries.filter((entry) => Number(entry.tag.slice(0, 4)) > 12);
  const missing = later.filter((entry) => !(entry.tag in UNDO_AFTER_0012)).map((entry) => entry.tag);
  if (missing.length > 0) throw new Error(`activity-chain.test.ts: say how to undo migration ${missing.join(', ')}`);
  return later
    .reverse()
    .map((entry) => UNDO_AFTER_0012[entry.tag])
    .join('\n');
}
