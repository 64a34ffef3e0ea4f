import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupDatabase } from '../../server/db/backup';
import { makeContract, signingClient } from '../helpers/signing';
import { signInClient } from '../helpers/session';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';
import { rawSql } from '../../server/db/raw-sql';
import { sqliteOf } from '../../server/db/database';

/**
 * The database file alone (a copy, or a backup of it) must not be a master key: no signing
 * link, session, API key, one-time code, webhook secret or mail/SMS password can be read or
 * worked out from it without DATA_DIR/keys.
 */
describe('secrets at rest', () => {
  let t: TestServer;
  let smtp: SmtpReceiver;
  let copy: TestServer | undefined;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    smtp = await startSmtpReceiver({ auth: { user: 'office', pass: 'Smtp-Passw0rd-4711' } });
    t = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'office@example.test' });
    await t.api('PUT', '/api/settings/messaging', {
      body: { smtp_url: smtp.url, sms_gateway_url: 'http://gateway:Sms-Passw0rd-0815@127.0.0.1:9/sms' },
    });
    await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/hooks' } });
    const contract = await makeContract(
      t,
      [
        { name: 'Eva', email: 'eva@example.test' },
        { name: 'Olof', email: 'olof@example.test' },
      ],
      { require_auth: 'EMAIL_CODE' },
    );
    await t.api('POST', `${contract.self}/send`);
    contract.parties.forEach(
      (party, index) => (secrets[`link ${index + 1}`] = party.contract_url.split('/sign/')[1] as string),
    );
    // A one-time code, sent and not yet used.
    const eva = signingClient(contract.parties[0]!.contract_url);
    await eva.state();
    await eva.sendCode();
    const codeMail = (await smtp.waitForMails(3)).find((mail) => /one-time code/i.test(mail.mail.subject ?? ''));
    // The code as its mail carries it (the bare six digits could turn up anywhere in a file by chance).
    secrets.code = /Enter the code \d{6}/.exec(codeMail?.mail.text ?? '')?.[0] as string;
    expect(secrets.code).toMatch(/\b\d{6}\b/);
    const session = await signInClient(t.url, 'admin', 'correct horse');
    secrets.session = (session.cookie ?? '').split('=')[1] as string;
    secrets['API key'] = t.adminKey.split(':')[1] as string;
    secrets['SMTP password'] = 'Smtp-Passw0rd-4711';
    secrets['SMS password'] = 'Sms-Passw0rd-0815';
  });
  afterAll(async () => {
    await copy?.close();
    await t.close();
    await smtp.close();
  });

  /**
   * A copy of the database alone, as SQLite's online backup makes it: what leaks when the file
   * leaves without DATA_DIR/keys. (The office's own backup holds keys/ too, encrypted whole.)
   */
  async function backupBytes(): Promise<Buffer> {
    const file = path.join(makeTempDir('signdesk-db-copy-'), 'copy.sqlite');
    await backupDatabase(t.server.ctx.db, file);
    return fs.readFileSync(file);
  }

  it('holds none of them in the database file or its backup', async () => {
    const backup = await backupBytes();
    sqliteOf(t.server.ctx.db).sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const live = fs.readFileSync(path.join(t.dataDir, 'signdesk.sqlite'));
    const found = Object.entries(secrets).flatMap(([name, secret]) =>
      [
        ['backup', backup],
        ['database', live],
      ].flatMap(([where, bytes]) =>
        (bytes as Buffer).includes(secret, 0, 'latin1') ? [`${name} in the ${where as string}`] : [],
      ),
    );
    expect(found).toEqual([]);
  });

  it('yields no working link, session or key to a server started on a copy with keys of its own', async () => {
    const dataDir = makeTempDir('signdesk-stolen-');
    fs.writeFileSync(path.join(dataDir, 'signdesk.sqlite'), await backupBytes());
    copy = await startTestServer({}, dataDir);
    // Whoever runs the copy may read everything in it through its own API...
    const parties = (await copy.api('GET', '/api/contracts/1/parties')).body as Array<{ contract_url: string | null }>;
    expect(parties).toHaveLength(2);
    // ...but the links it can work out open nothing, here or on the office's server.
    for (const party of parties) {
      const token = party.contract_url?.split('/sign/')[1];
      if (!token) continue;
      expect((await fetch(`${t.url}/sign/${token}/state`)).status).toBe(404);
      expect((await fetch(`${copy.url}/sign/${token}/state`)).status).toBe(404);
    }
    const settings = (await copy.api('GET', '/api/settings/messaging')).body;
    expect(JSON.stringify(settings)).not.toContain('Passw0rd');
    // The webhook consumer's signing key cannot be unsealed without the office's key file.
    const consumer = await copy.server.ctx.repos.webhookConsumers.findById(1);
    expect(consumer).toBeDefined();
    await expect(
      copy.server.ctx.webhooks.keyring.signerFor(1, consumer!.publicKey, consumer!.sealedSecretKey),
    ).rejects.toThrow(/cannot be unsealed/);
    // Hashes are all there is of sessions and keys: presented as they are stored, they open nothing.
    const sqlite = rawSql(copy.server.ctx.db);
    const sessionHash = ((await sqlite.get('SELECT id_hash AS h FROM admin_sessions LIMIT 1')) as { h: string }).h;
    const keyRow = (await sqlite.get('SELECT public_id AS p, secret_hash AS h FROM api_tokens LIMIT 1')) as {
      p: string;
      h: string;
    };
    expect(
      (
        await fetch(`${t.url}/api/session`, {
          headers: { cookie: `signdesk_session=${sessionHash}`, 'accept-api-version': '1' },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await fetch(`${t.url}/api/users`, {
          headers: { authorization: `token ${keyRow.p}:${keyRow.h}`, 'accept-api-version': '1' },
        })
      ).status,
    ).toBe(401);
  });
});
