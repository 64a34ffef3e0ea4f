import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../server/cli/run-cli';
import { createServer, loadConfig, type SignDeskServer } from '../../server/index';
import { sealCertificateFingerprint } from '../helpers/backup';
import { createTestPostgresDatabase, TEST_MASTER_KEY } from '../helpers/databases';
import { pdfsig } from '../helpers/pdf-tools';
import { apiClient, makeTempDir, startTestServer, type ApiClient, type TestServer } from '../helpers/server';
import { makeContract, signingClient, type MadeContract } from '../helpers/signing';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const sameFingerprint = (a: string, b: string) =>
  a.replace(/:/g, '').toLowerCase() === b.replace(/:/g, '').toLowerCase();

/** `npm run cli -- migrate …` over DATA_DIR, with the environment an IT partner gives it. */
async function migrate(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['migrate', ...args],
    { DATA_DIR: dataDir, SIGNDESK_MASTER_KEY: TEST_MASTER_KEY, ...env },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, out, err };
}

/** A party opens its link (the page's CSRF token) and signs. */
async function sign(link: string, name: string): Promise<number> {
  const party = signingClient(link);
  expect((await party.state()).status).toBe(200);
  return (await party.accept({}, name)).status;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * An office moves from SQLite to PostgreSQL (issue 37, "Moving an office"): its rows, keys,
 * files and chains go with it, the tool checks the copy, and the office goes on where it
 * stopped: a link sent before the move signs, the seal is the same certificate, the webhook
 * consumer verifies the deliveries with the key it stored before, the chains verify.
 */
describe('moving an office from SQLite to PostgreSQL', { timeout: 180_000 }, () => {
  let hooks: WebhookReceiver;
  let original: TestServer;
  let moved: SignDeskServer | undefined;
  let api: ApiClient;
  let pending: MadeContract;
  let sealed: MadeContract;
  let fingerprint = '';
  let target = '';
  const work = makeTempDir('signdesk-migrate-test-');

  beforeAll(async () => {
    // The office being moved runs on SQLite, whichever backend this pass tests.
    vi.stubEnv('SIGNDESK_TEST_BACKEND', 'sqlite');
    hooks = await startWebhookReceiver();
    original = await startTestServer({ webhookFirstDelayS: 0 });
    const consumer = (await original.api('POST', '/api/webhooks', { body: { url: `${hooks.url}/hooks` } })).body;
    hooks.trust(consumer.key_id, consumer.public_key);
    fingerprint = (await original.api('GET', '/api/settings/signing_certificate')).body.fingerprint;
    // One contract signed and sealed before the move, one halfway signed.
    sealed = await makeContract(original, [{ name: 'Åsa Öberg', email: 'asa@oberg.test', delivery_method: 'NONE' }]);
    expect((await original.api('POST', `${sealed.self}/send`)).status).toBe(200);
    expect(await sign(sealed.parties[0]!.contract_url, 'Åsa Öberg')).toBe(200);
    pending = await makeContract(original, [
      { name: 'Eva Nordin', email: 'eva@nordin.test', delivery_method: 'NONE' },
      { name: 'Bo Ek', email: 'bo@ek.test', delivery_method: 'NONE' },
    ]);
    expect((await original.api('POST', `${pending.self}/send`)).status).toBe(200);
    expect(await sign(pending.parties[0]!.contract_url, 'Eva Nordin')).toBe(200);
    await vi.waitFor(async () => expect((await original.api('GET', sealed.self)).body.is_signed).toBe(true), {
      timeout: 30_000,
      interval: 50,
    });
    await vi.waitFor(() => expect(hooks.verified().length).toBe(3), { timeout: 15_000, interval: 25 });
    // The move is made with the server stopped.
    await original.close();
    target = await createTestPostgresDatabase('sd_move');
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await moved?.close();
    await hooks?.close();
  });

  it('copies the office into an empty database and checks rows, keys, files, every chain and a seal', async () => {
    const done = await migrate(original.dataDir, ['--to', target]);
    expect(done.err).toEqual([]);
    expect(done.code).toBe(0);
    expect(done.out[0]).toBe(`DATA_DIR: ${original.dataDir}`);
    expect(done.out).toContain('Copying rows');
    expect(done.out.some((line) => /^ {2}rows: (\d+) of \1$/.test(line))).toBe(true);
    expect(done.out).toContainEqual(
      expect.stringMatching(/^Copied \d+ keys into the database, sealed with the master key/),
    );
    expect(done.out).toContainEqual(
      expect.stringMatching(/^Verified: \d+ rows in \d+ tables, \d+ keys, 2 stored files$/),
    );
    expect(done.out).toContainEqual(
      expect.stringMatching(/^Verified: 2 contract chains and the office log \(\d+ entries\), intact/),
    );
    expect(done.out).toContainEqual(
      expect.stringMatching(
        new RegExp(`^Verified: the seal of contract ${sealed.id} \\(.+\\) is intact on PostgreSQL$`),
      ),
    );
    // The keys are in the database, sealed: no private key in clear.
    const keys = await query<{ name: string; sealed: Buffer }>(target, 'SELECT name, sealed FROM sealed_keys');
    expect(keys.map((row) => row.name)).toEqual(expect.arrayContaining(['app-secret', 'signing-identity.json']));
    const appSecret = fs.readFileSync(path.join(original.dataDir, 'keys', 'app-secret'));
    expect(keys.some((row) => row.sealed.includes(appSecret))).toBe(false);
  });

  it('runs on PostgreSQL with the same master key: a link sent before the move signs, seals and webhooks are the same office', async () => {
    const config = loadConfig({
      DATA_DIR: original.dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: target,
      SIGNDESK_MASTER_KEY: TEST_MASTER_KEY,
    });
    moved = await createServer({ ...config, webhookFirstDelayS: 0 });
    expect(moved.ctx.db.dialect).toBe('postgres');
    // The integrator's API key from before the move still works.
    api = apiClient(moved.url, original.adminKey);
    const cert = (await api('GET', '/api/settings/signing_certificate')).body;
    expect(sameFingerprint(cert.fingerprint, fingerprint)).toBe(true);

    const bo = signingClient(pending.parties[1]!.contract_url.replace(original.url, moved.url));
    expect((await bo.state()).status).toBe(200);
    expect((await bo.accept({}, 'Bo Ek')).status).toBe(200);
    await expect.poll(() => hooks.verified().length, { timeout: 20_000, interval: 25 }).toBe(5);
    expect(hooks.requests.every((request) => request.isVerified)).toBe(true);
    expect(
      hooks
        .verified()
        .slice(3)
        .map((request) => request.json.type),
    ).toEqual(['contract.party_signed', 'contract.signed']);

    for (const contract of [sealed, pending]) {
      const signed = await fetch(`${moved.url}${contract.self}/signed_pdf`, {
        headers: { authorization: `token ${original.adminKey}`, 'accept-api-version': '1' },
      });
      expect(signed.status).toBe(200);
      const pdf = path.join(work, `signed-${contract.id}.pdf`);
      fs.writeFileSync(pdf, Buffer.from(await signed.arrayBuffer()));
      expect(pdfsig(pdf)).toContain('Signature is Valid');
      expect(sameFingerprint(sealCertificateFingerprint(pdf, makeTempDir('signdesk-pdfsig-')), fingerprint)).toBe(true);
      const log = await api('GET', `${contract.self}/activity_log/verification`);
      expect(log.status).toBe(200);
      expect(log.body).toMatchObject({ is_intact: true, problems: [] });
    }
    const office = await api('GET', '/api/office_log/verification');
    expect(office.body).toMatchObject({ is_intact: true, problems: [] });
  });

  it('refuses a database that holds an office or other tables, and a move without the master key, changing nothing; copies the stored files into the database', async () => {
    await moved?.close();
    moved = undefined;
    const before = await query<{ n: number }>(target, 'SELECT count(*)::int AS n FROM contracts');
    const again = await migrate(original.dataDir, ['--to', target]);
    expect(again.code).toBe(1);
    expect(again.err.join('\n')).toMatch(
      /^The database postgres:\/\/.+ is not empty: it holds an office already \(contracts \(2\), parties \(3\), users \(1\), .*\)\. migrate copies an office into an empty database only; nothing was changed\.$/,
    );
    expect(await query<{ n: number }>(target, 'SELECT count(*)::int AS n FROM contracts')).toEqual(before);

    const other = await createTestPostgresDatabase('sd_move');
    await query(other, 'CREATE TABLE invoices (id int PRIMARY KEY)');
    const foreign = await migrate(original.dataDir, ['--to', other]);
    expect(foreign.code).toBe(1);
    expect(foreign.err.join('\n')).toContain("holds tables that are not SignDesk's (invoices)");
    // SignDesk's migrations did not run there.
    expect(await query(other, "SELECT 1 FROM information_schema.tables WHERE table_name = 'contracts'")).toEqual([]);

    const empty = await createTestPostgresDatabase('sd_move');
    const keyless = await migrate(original.dataDir, ['--to', empty], { SIGNDESK_MASTER_KEY: '' });
    expect(keyless.code).toBe(1);
    expect(keyless.err.join('\n')).toContain('sealed with a master key, and none was given');
    expect(await query(empty, "SELECT 1 FROM information_schema.tables WHERE table_name = 'contracts'")).toEqual([]);

    // With the master key, the same empty database takes the office, its stored files into the database.
    const copied = await migrate(original.dataDir, ['--to', empty]);
    expect(copied.err).toEqual([]);
    expect(copied.code).toBe(0);
    expect(copied.out).toContain('Copying the stored files into the database');
    const stored = await query<{ sha256: string }>(empty, 'SELECT DISTINCT sha256 FROM stored_files WHERE in_files');
    expect(stored).toHaveLength(2);
    for (const { sha256 } of stored) {
      const chunks = await query<{ data: Buffer }>(
        empty,
        `SELECT data FROM file_chunks WHERE sha256 = '${sha256}' ORDER BY chunk`,
      );
      const inDatabase = Buffer.concat(chunks.map((row) => row.data));
      const onDisk = fs.readFileSync(path.join(original.dataDir, 'files', sha256.slice(0, 2), sha256));
      expect(inDatabase.equals(onDisk)).toBe(true);
    }

    const usage = await migrate(original.dataDir, ['--to', 'mysql://db/office']);
    expect(usage.code).toBe(2);
    expect(usage.err.join('\n')).toContain('migrate needs --to postgres://');
  });
});
