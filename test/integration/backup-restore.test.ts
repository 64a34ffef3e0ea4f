import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/db/open-database';
import { testDatabaseEnv } from '../helpers/databases';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupCli, sealCertificateFingerprint, snapshotDir } from '../helpers/backup';
import { pdfsig } from '../helpers/pdf-tools';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient } from '../helpers/signing';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const PASSPHRASE = 'korrekt häst batteri häftklammer';
const sameFingerprint = (a: string, b: string) =>
  a.replace(/:/g, '').toLowerCase() === b.replace(/:/g, '').toLowerCase();

/** The office moves to a new computer: its backup, restored there, is the same office. */
/** The app secret as the office keeps it: DATA_DIR/keys on SQLite, its sealed row on PostgreSQL. */
async function appSecretOf(dataDir: string): Promise<Buffer> {
  const url = testDatabaseEnv(dataDir).DATABASE_URL;
  if (url === undefined) return fs.readFileSync(path.join(dataDir, 'keys', 'app-secret'));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ sealed: Buffer }>("SELECT sealed FROM sealed_keys WHERE name = 'app-secret'");
    return rows[0]!.sealed;
  } finally {
    await client.end();
  }
}

describe('a whole-office backup restored on a new computer', { timeout: 120_000 }, () => {
  let hooks: WebhookReceiver;
  let original: TestServer;
  let restored: TestServer | undefined;
  const work = makeTempDir('signdesk-backup-test-');
  let originalFingerprint = '';
  let contract: Awaited<ReturnType<typeof makeContract>>;
  const backupFile = path.join(work, 'office.sdbackup');

  beforeAll(async () => {
    hooks = await startWebhookReceiver();
    original = await startTestServer({ webhookFirstDelayS: 0 });
    // The integrator registered its consumer and stored ITS public key, once.
    const consumer = (await original.api('POST', '/api/webhooks', { body: { url: `${hooks.url}/hooks` } })).body;
    hooks.trust(consumer.key_id, consumer.public_key);
    originalFingerprint = (await original.api('GET', '/api/settings/signing_certificate')).body.fingerprint;
    contract = await makeContract(original, [
      { name: 'Eva Nordin', email: 'eva@nordin.test', delivery_method: 'NONE' },
      { name: 'Bo Ek', email: 'bo@ek.test', delivery_method: 'NONE' },
    ]);
    expect((await original.api('POST', `${contract.self}/send`)).status).toBe(200);
    const eva = signingClient(contract.parties[0]!.contract_url);
    expect((await eva.state()).status).toBe(200);
    expect((await eva.accept({}, 'Eva Nordin')).status).toBe(200);
    await vi.waitFor(() => expect(hooks.verified().length).toBe(1), { timeout: 15_000, interval: 25 });
  });
  afterAll(async () => {
    await restored?.close();
    await original?.close();
    await hooks?.close();
  });

  it('makes the backup with the CLI and through the API, each saying which DATA_DIR it used', async () => {
    const made = await backupCli(original.dataDir, ['backup', 'create', '--out', backupFile], PASSPHRASE);
    expect(made.err).toEqual([]);
    expect(made.code).toBe(0);
    expect(made.out[0]).toBe(`DATA_DIR: ${original.dataDir}`);
    expect(fs.readFileSync(backupFile).subarray(0, 8).toString('latin1')).toBe('SDBACKUP');
    // Nothing of the office readable in the file: not the database, not a key.
    expect(fs.readFileSync(backupFile).includes(Buffer.from('SQLite format 3'))).toBe(false);

    const viaApi = await fetch(`${original.url}/api/settings/backup`, {
      method: 'POST',
      headers: {
        authorization: `token ${original.adminKey}`,
        'accept-api-version': '1',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ passphrase: PASSPHRASE }),
    });
    expect(viaApi.status).toBe(200);
    expect(viaApi.headers.get('content-disposition')).toMatch(
      /^attachment; filename="signdesk-\d{8}-\d{6}\.sdbackup"$/,
    );
    expect(
      Buffer.from(await viaApi.arrayBuffer())
        .subarray(0, 8)
        .toString('latin1'),
    ).toBe('SDBACKUP');
    const short = await original.api('POST', '/api/settings/backup', { body: { passphrase: 'short' } });
    expect(short.status).toBe(400);
  });

  it('refuses a running server, a wrong passphrase, a cut-off or damaged file, and changes nothing', async () => {
    // The new computer has run SignDesk once: its own keys and certificate exist.
    const fresh = await startTestServer();
    const newDir = fresh.dataDir;
    const freshFingerprint = (await fresh.api('GET', '/api/settings/signing_certificate')).body.fingerprint;
    expect(sameFingerprint(freshFingerprint, originalFingerprint)).toBe(false);
    const running = await backupCli(newDir, ['backup', 'restore', '--in', backupFile], PASSPHRASE);
    expect(running.code).toBe(1);
    expect(running.err.join('\n')).toMatch(
      /Another SignDesk \(server, process \d+ at http:\/\/127\.0\.0\.1:\d+\) is already using the data folder .*A restore needs it stopped/,
    );
    await fresh.close();
    const before = snapshotDir(newDir);

    const bytes = fs.readFileSync(backupFile);
    const cut = path.join(work, 'cut.sdbackup');
    fs.writeFileSync(cut, bytes.subarray(0, bytes.length - 100));
    const damaged = path.join(work, 'damaged.sdbackup');
    const flipped = Buffer.from(bytes);
    const at = Math.floor(bytes.length * 0.7);
    flipped[at] = (flipped[at] ?? 0) ^ 0x40;
    fs.writeFileSync(damaged, flipped);
    // A database file alone, as the first versions' backups were (whichever engine this office runs on).
    const old = path.join(work, 'old.sqlite');
    openDatabase(old).close();
    const cases: Array<[string, string, RegExp]> = [
      [backupFile, 'not the passphrase', /The passphrase is wrong/],
      [cut, PASSPHRASE, /incomplete/],
      [damaged, PASSPHRASE, /damaged/],
      [old, PASSPHRASE, /old database-only backup/],
    ];
    for (const [file, passphrase, message] of cases) {
      const refused = await backupCli(newDir, ['backup', 'restore', '--in', file], passphrase);
      expect(refused.code, file).toBe(1);
      expect(refused.err.join('\n')).toMatch(/^Nothing was changed: /);
      expect(refused.err.join('\n')).toMatch(message);
      expect(snapshotDir(newDir)).toEqual(before);
    }
    const none = await backupCli(newDir, ['backup', 'restore', '--in', backupFile], undefined);
    expect(none.err.join('\n')).toContain('BACKUP_PASSPHRASE');
  });

  it('restored into a new DATA_DIR: webhooks verify against the original keys, PDFs are sealed with the original certificate, links keep working', async () => {
    const newDir = makeTempDir();
    // A different machine identity first: fresh keys of its own.
    const fresh = await startTestServer({}, newDir);
    await fresh.api('GET', '/api/settings/signing_certificate');
    await fresh.close();
    const ownSecret = await appSecretOf(newDir);

    const done = await backupCli(newDir, ['backup', 'restore', '--in', backupFile], PASSPHRASE);
    expect(done.err).toEqual([]);
    expect(done.out[0]).toBe(`DATA_DIR: ${newDir}`);
    expect(done.out.at(-1)).toMatch(
      /^Restored .* as backed up \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(Europe\/Stockholm\)/,
    );
    expect((await appSecretOf(newDir)).equals(ownSecret)).toBe(false);
    expect(fs.readdirSync(newDir).filter((name) => name.startsWith('.'))).toEqual([]);

    restored = await startTestServer({ webhookFirstDelayS: 0 }, newDir);
    // It says it is a restored copy (its scheduled backups wait) until an admin confirms it.
    expect((await restored.api('GET', '/api/settings/backup_schedule')).body.restored_copy).toMatchObject({
      backup_made_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const cert = (await restored.api('GET', '/api/settings/signing_certificate')).body;
    expect(sameFingerprint(cert.fingerprint, originalFingerprint)).toBe(true);

    // Bo follows the link he was sent before the move (same token, the new computer's address).
    const link = contract.parties[1]!.contract_url.replace(original.url, restored.url);
    const bo = signingClient(link);
    expect((await bo.state()).status).toBe(200);
    expect((await bo.accept({}, 'Bo Ek')).status).toBe(200);
    await expect.poll(() => hooks.verified().length, { timeout: 15_000, interval: 25 }).toBe(3);
    expect(hooks.requests.every((request) => request.isVerified)).toBe(true);
    expect(hooks.verified().map((request) => request.json.type)).toEqual([
      'contract.party_signed',
      'contract.party_signed',
      'contract.signed',
    ]);

    const signed = await fetch(`${restored.url}${contract.self}/signed_pdf`, {
      headers: { authorization: `token ${restored.adminKey}`, 'accept-api-version': '1' },
    });
    expect(signed.status).toBe(200);
    const pdf = path.join(work, 'signed.pdf');
    fs.writeFileSync(pdf, Buffer.from(await signed.arrayBuffer()));
    expect(pdfsig(pdf)).toContain('Signature is Valid');
    const dumpDir = makeTempDir('signdesk-pdfsig-');
    expect(sameFingerprint(sealCertificateFingerprint(pdf, dumpDir), originalFingerprint)).toBe(true);
  });
});
