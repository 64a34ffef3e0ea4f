import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrationTime, undoMigrationsAfter0012 } from '../helpers/migrations';
import { afterAll, describe, expect, it } from 'vitest';
import { readMessagingSettings } from '../../server/messages/messaging-settings';
import { makeContract } from '../helpers/signing';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';
import { sqliteOf } from '../../server/db/database';

const OLD_SMTP_URL = 'smtp://office:Old-Passw0rd-1234@127.0.0.1:9';

/**
 * A database from before secrets were sealed: the party's link in clear in `sign_token`, outbox
 * texts and the SMTP password in clear. Made from a current one by undoing the migration, so
 * that the next start runs the migration and the sealing step on it as an upgrade would (an older
 * version never set the mark of a sealed database).
 */
function makeLegacyDatabase(file: string, legacyToken: string): void {
  const db = new Database(file);
  try {
    // Every later migration undone first, so that 0012 and all after it run again at the next start.
    db.exec(undoMigrationsAfter0012());
    db.exec(`
      DROP INDEX parties_sign_token_hash;
      ALTER TABLE parties DROP COLUMN sign_nonce;
      ALTER TABLE parties DROP COLUMN sign_token_sealed;
      ALTER TABLE parties RENAME COLUMN sign_token_hash TO sign_token;
      CREATE UNIQUE INDEX parties_sign_token ON parties (sign_token);
      DELETE FROM __drizzle_migrations WHERE created_at >= ${migrationTime('0012')};
      DELETE FROM settings WHERE key = 'secrets.sealed_at_rest';
    `);
    db.prepare('UPDATE parties SET sign_token = ?').run(legacyToken);
    db.prepare("UPDATE outbox_messages SET subject = 'Old subject', text = ?, html = NULL").run(
      `Sign here: http://office.test/sign/${legacyToken}`,
    );
    db.prepare("UPDATE settings SET value = ? WHERE key = 'messaging.smtp_url'").run(OLD_SMTP_URL);
    expect(db.prepare('SELECT count(*) AS n FROM settings WHERE value = ?').get(OLD_SMTP_URL)).toEqual({ n: 1 });
  } finally {
    db.close();
  }
}

describe('secrets kept in clear by an older version', () => {
  let upgraded: TestServer | undefined;
  let restarted: TestServer | undefined;
  afterAll(async () => {
    await upgraded?.close();
    await restarted?.close();
  });

  it('are sealed by the upgrade, and the old link keeps working', async () => {
    const dataDir = makeTempDir('signdesk-upgrade-');
    const old = await startTestServer({}, dataDir);
    await old.api('PUT', '/api/settings/messaging', { body: { smtp_url: 'smtp://office:placeholder@127.0.0.1:9' } });
    const contract = await makeContract(old, [{ name: 'Eva', email: 'eva@example.test' }]);
    expect((await old.api('POST', `${contract.self}/send`)).status).toBe(200);
    await old.close();

    const legacyToken = randomBytes(32).toString('base64url');
    const file = path.join(dataDir, 'signdesk.sqlite');
    makeLegacyDatabase(file, legacyToken);

    upgraded = await startTestServer({}, dataDir);
    expect((await fetch(`${upgraded.url}/sign/${legacyToken}/state`)).status).toBe(200);
    const party = await upgraded.api('GET', contract.parties[0]!.self);
    expect(party.body.contract_url).toMatch(new RegExp(`/sign/${legacyToken}$`));
    expect((await readMessagingSettings(upgraded.server.ctx)).smtpUrl).toBe(OLD_SMTP_URL);
    const messages = await upgraded.api('GET', '/api/outbox');
    expect(messages.body.map((message: { subject: string }) => message.subject)).toContain('Old subject');

    sqliteOf(upgraded.server.ctx.db).sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = fs.readFileSync(file);
    expect(bytes.includes(legacyToken, 0, 'latin1')).toBe(false);
    expect(bytes.includes('Old-Passw0rd', 0, 'latin1')).toBe(false);
    expect(bytes.includes('Sign here', 0, 'latin1')).toBe(false);
  });

  it('are looked for once: a sealed database is not scanned again at start-up', async () => {
    const dataDir = makeTempDir('signdesk-sealed-once-');
    const first = await startTestServer({}, dataDir);
    const contract = await makeContract(first, [{ name: 'Eva', email: 'eva@example.test' }]);
    expect((await first.api('POST', `${contract.self}/send`)).status).toBe(200);
    await first.close();

    // Written past the sealing code (no version writes this), it shows whether the next start looks.
    const db = new Database(path.join(dataDir, 'signdesk.sqlite'));
    db.prepare("UPDATE outbox_messages SET subject = 'Clear subject'").run();
    db.close();

    restarted = await startTestServer({}, dataDir);
    const rows = await rawSql(restarted.server.ctx.db).all('SELECT subject FROM outbox_messages');
    expect(rows).toEqual([{ subject: 'Clear subject' }]);
  });
});
