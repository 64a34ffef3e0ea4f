import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawSql } from '../../server/db/raw-sql';
import { download, signedContract, waitForTimestampStatus } from '../helpers/evidence';
import { databaseDump, openOfficeDatabase } from '../helpers/office-database';
import { run } from '../helpers/pdf-tools';
import { makeTempDir, startTestServer } from '../helpers/server';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

const PASSWORD = `Sup3rS3cretTsaPw${Date.now().toString(36)}`;
const USER = 'tsauser';

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/** Where the password's bytes occur (as they are, URL-encoded, or base64 as in a Basic header). */
const FORMS = [PASSWORD, encodeURIComponent(PASSWORD), Buffer.from(`${USER}:${PASSWORD}`).toString('base64')];
function secretIn(bytes: Uint8Array): string | undefined {
  const buffer = Buffer.from(bytes);
  return FORMS.find((form) => buffer.includes(form));
}

describe("a timestamp authority's credentials stay secret", () => {
  let tsa: TsaServer;
  let env: SigningEnv;
  let dir: string;
  beforeAll(async () => {
    tsa = await startTsaServer({ basicAuth: { user: USER, password: PASSWORD } });
    env = await startSigningEnv({ tsaRetryScheduleS: [0.3, 0.5], logLevel: 'debug' });
    dir = makeTempDir('signdesk-tsa-secret-');
  });
  afterAll(async () => {
    await env?.close();
    await tsa?.close();
  });

  it('never appear in a sealed PDF (inflated too), the evidence package, the log file, any API answer or the data folder', async () => {
    const { t } = env;
    expect((await t.api('PUT', '/api/settings/timestamps', { body: { tsa_url: tsa.url } })).status).toBe(200);
    const tested = await t.api('POST', '/api/settings/timestamps/test');
    expect(tested.body.ok, JSON.stringify(tested.body)).toBe(true);

    // One contract timestamped at sealing, one after an outage (a document timestamp, asked by the job).
    const atSeal = await signedContract(t);
    await waitForTimestampStatus(t, atSeal.self, 'signature');
    tsa.down();
    const later = await signedContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    await waitForTimestampStatus(t, later.self, 'pending');
    // The job has asked again and logged it (the log line names the authority) before it comes back.
    const logFile = path.join(t.dataDir, 'logs', 'signdesk.log');
    await vi.waitFor(() => expect(fs.readFileSync(logFile, 'utf8')).toContain('timestamps: still pending'), {
      timeout: 15_000,
      interval: 50,
    });
    tsa.up();
    await waitForTimestampStatus(t, later.self, 'document');
    // The authority was really asked with the password (it answers nothing without it).
    expect(tsa.replies()).toBeGreaterThanOrEqual(3);

    const authority = new URL(tsa.url);
    const shownAs = `${authority.origin}${authority.pathname}`;
    for (const contract of [atSeal, later]) {
      const pdf = (await download(t, `${contract.self}/signed_pdf`)).bytes;
      expect(secretIn(pdf)).toBeUndefined();
      const file = path.join(dir, `c${contract.self.split('/').at(-1)}.pdf`);
      fs.writeFileSync(file, pdf);
      // Every stream inflated, every object out of its object stream.
      const inflated = `${file}.qdf`;
      run('qpdf', ['--qdf', '--object-streams=disable', file, inflated]);
      expect(secretIn(fs.readFileSync(inflated))).toBeUndefined();
      const text = run('pdftotext', ['-layout', file, '-']).stdout;
      expect(text.replaceAll(/\s+/g, ' ')).toContain(shownAs);
      expect(text).not.toContain(USER);

      const zip = (await download(t, `${contract.self}/evidence`)).bytes;
      for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(zip))))
        expect(secretIn(bytes), name).toBeUndefined();

      for (const pathname of [
        contract.self,
        `${contract.self}/activity_log?per_page=100`,
        `${contract.self}/activity_log/verification`,
      ]) {
        const answer = await t.api('GET', pathname);
        expect(answer.status).toBe(200);
        expect(secretIn(Buffer.from(answer.text)), pathname).toBeUndefined();
      }
    }
    for (const pathname of [
      '/api/settings/timestamps',
      '/api/contracts?per_page=100',
      '/api/settings/general',
      '/api/office_log',
      '/api/office_log/verification',
    ]) {
      const answer = await t.api('GET', pathname);
      expect(answer.status, pathname).toBe(200);
      expect(secretIn(Buffer.from(answer.text)), pathname).toBeUndefined();
    }
    // The office log records the change of authority, by its origin and path only.
    const office = (await t.api('GET', '/api/office_log')).body as Array<{ subject: string; details: any }>;
    expect(office.find((entry) => entry.subject === '/api/settings/timestamps')?.details).toEqual({
      fields: 'tsa_url',
      tsa_url: shownAs,
    });
    expect(secretIn(Buffer.from(tested.text))).toBeUndefined();

    // At rest: not in the database (its file and WAL, or PostgreSQL's dump, its files' bytes as hex),
    // the log file, or anything else in DATA_DIR.
    for (const file of filesUnder(t.dataDir)) expect(secretIn(fs.readFileSync(file)), file).toBeUndefined();
    const dump = databaseDump(t.dataDir);
    expect(secretIn(Buffer.from(dump))).toBeUndefined();
    for (const form of FORMS) expect(dump).not.toContain(Buffer.from(form).toString('hex'));
  }, 240_000);
});

describe('credentials an older version kept in clear', () => {
  it('are sealed (the setting) and removed (seal records) at the next start', async () => {
    const tsa = await startTsaServer({ basicAuth: { user: USER, password: PASSWORD } });
    const first = await startTestServer({ tsaUrl: tsa.url });
    try {
      const contract = await signedContract(first);
      await waitForTimestampStatus(first, contract.self, 'signature');
    } finally {
      await first.close();
    }
    // What an older version wrote: the setting and the seal record with the password in clear.
    const db = await openOfficeDatabase(first.dataDir);
    await db.sql.run("INSERT INTO settings (key, value, updated_at) VALUES ('timestamps.tsa_url', ?, 0)", tsa.url);
    await db.sql.run('UPDATE contract_seals SET tsa_url = ?', tsa.url);
    await db.close();

    const second = await startTestServer({}, first.dataDir);
    try {
      const db2 = rawSql(second.server.ctx.db);
      const setting = (await db2.get<{ value: string }>(
        "SELECT value FROM settings WHERE key = 'timestamps.tsa_url'",
      ))!;
      const seals = await db2.all<{ url: string }>('SELECT tsa_url AS url FROM contract_seals');
      expect(secretIn(Buffer.from(setting.value))).toBeUndefined();
      expect(setting.value).toMatch(/^sealed:/);
      expect(seals.length).toBeGreaterThan(0);
      for (const seal of seals) expect(seal.url).toBe(tsa.url.replace(`${USER}:${encodeURIComponent(PASSWORD)}@`, ''));
      // The sealed setting still works: the authority answers with the password it opens.
      const settings = await second.api('GET', '/api/settings/timestamps');
      expect(settings.body).toMatchObject({ source: 'settings', tsa_url: expect.stringContaining(':********@') });
      const tested = await second.api('POST', '/api/settings/timestamps/test');
      expect(tested.body.ok, JSON.stringify(tested.body)).toBe(true);
    } finally {
      await second.close();
      await tsa.close();
    }
  }, 180_000);
});
