import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawSql } from '../../server/db/raw-sql';
import { makePdf } from '../helpers/pdfs';
import { expectProblem } from '../helpers/problems';
import { stored } from '../helpers/stored-files';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

const PASSPHRASE = 'a passphrase long enough';

describe('scheduled backups that cannot hurt the office', { timeout: 120_000 }, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });
  const schedule = async () => (await t.api('GET', '/api/settings/backup_schedule')).body;
  /** Enables the schedule into `folder` and waits for its first backup's restore drill. */
  const backUpAndDrill = async (folder: string) => {
    const on = await t.api('PUT', '/api/settings/backup_schedule', {
      body: { is_enabled: true, folder, passphrase: PASSPHRASE, keep: 5 },
    });
    expect(on.status, on.text).toBe(200);
    await vi.waitFor(async () => expect((await schedule()).last_drill?.file).toMatch(new RegExp(`^${folder}`)), {
      timeout: 60_000,
      interval: 100,
    });
  };

  it('refuses a folder inside the data folder, also through a symlink, and saves nothing', async () => {
    const outside = makeTempDir('signdesk-links-');
    const intoKeys = path.join(outside, 'looks-outside');
    fs.symlinkSync(path.join(t.dataDir, 'keys'), intoKeys);
    for (const folder of [
      path.join(t.dataDir, 'keys'),
      t.dataDir,
      path.join(t.dataDir, 'files', 'new', 'sub'),
      intoKeys,
      path.join(intoKeys, 'deeper'),
    ]) {
      const refused = await t.api('PUT', '/api/settings/backup_schedule', {
        body: { is_enabled: true, folder, passphrase: PASSPHRASE },
      });
      expect(refused.status, folder).toBe(400);
      expect(refused.body.detail, folder).toBe('The backup folder must lie outside the data folder.');
      expect(refused.body.validation_errors[0], folder).toMatch(/^folder: .* is inside SignDesk's data folder/);
    }
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'new'))).toBe(false);
    expect(await schedule()).toMatchObject({ is_enabled: false, folder: null, has_passphrase: false });
  });

  it('never writes through a symlink planted in its folder', async () => {
    const folder = makeTempDir('signdesk-shared-');
    const victim = path.join(makeTempDir('signdesk-victim-'), 'keepme.txt');
    fs.writeFileSync(victim, 'precious\n');
    // The names a backup made in the next minute would have: every one a symlink to the victim.
    // (Its partial file's name has a random part: test/unit/backup-partial-file.test.ts plants there.)
    const stampOf = (ms: number) => t.server.ctx.timestamp(ms).replace(/[-:]/g, '').replace(' ', '-');
    const now = t.server.ctx.now();
    for (let s = 0; s < 60; s += 1) {
      const name = `signdesk-backup-${stampOf(now + s * 1000)}.sdbackup`;
      fs.symlinkSync(victim, path.join(folder, name));
    }
    const on = await t.api('PUT', '/api/settings/backup_schedule', {
      body: { is_enabled: true, folder, passphrase: PASSPHRASE, keep: 1 },
    });
    expect(on.status, on.text).toBe(200);
    await vi.waitFor(async () => expect((await schedule()).last_result?.file).toBeTruthy(), {
      timeout: 60_000,
      interval: 50,
    });
    const result = (await schedule()).last_result;
    expect(result.error).toBeNull();
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious\n');
    // Its own file is a regular file under a free name, and pruning left the planted links alone.
    expect(fs.lstatSync(result.file).isFile()).toBe(true);
    expect(fs.readFileSync(result.file).subarray(0, 8).toString('latin1')).toBe('SDBACKUP');
    expect(
      fs.readdirSync(folder).filter((name) => fs.lstatSync(path.join(folder, name)).isSymbolicLink()),
    ).toHaveLength(60);
    expect(
      fs
        .readdirSync(folder)
        .some((name) => name.endsWith('.partial') && !fs.lstatSync(path.join(folder, name)).isSymbolicLink()),
    ).toBe(false);
    expect((await t.api('PUT', '/api/settings/backup_schedule', { body: { is_enabled: false } })).status).toBe(200);
  });

  it('checks every scheduled backup by a restore drill, and a restored office waits for the admin before it backs up', async () => {
    const folder = makeTempDir('signdesk-drill-');
    // An uploaded contract: its PDF is a file of DATA_DIR/files, which the drill looks for.
    const upload = await t.api('POST', '/api/contracts', {
      raw: { data: await makePdf(), contentType: 'application/pdf' },
    });
    expect(upload.status).toBe(201);
    // The seal identity exists once the office has asked for it (or sealed a contract).
    expect((await t.api('GET', '/api/settings/signing_certificate')).status).toBe(200);
    const on = await t.api('PUT', '/api/settings/backup_schedule', {
      body: { is_enabled: true, folder, passphrase: PASSPHRASE, keep: 5 },
    });
    expect(on.status, on.text).toBe(200);
    await vi.waitFor(
      async () => expect((await schedule()).last_drill?.file).toBe(path.join(folder, fs.readdirSync(folder)[0] ?? '-')),
      {
        timeout: 60_000,
        interval: 100,
      },
    );
    const done = await schedule();
    expect(done.last_drill).toMatchObject({ is_ok: true, error: null, file: done.last_result.file });
    expect(done.last_drill.checks).toEqual([
      expect.stringMatching(/^restored \(\d+ key files, \d+ stored files\)$/),
      'database integrity_check ok',
      expect.stringMatching(/^every stored file is there \((?!0 )\d+ checked\)$/),
      'keys unseal the stored secrets',
      expect.stringMatching(/^a seal verifies \(certificate [0-9A-F:]+…\)$/),
    ]);
    // The drill's scratch folder (decrypted keys) is gone.
    expect(fs.readdirSync(t.dataDir).filter((name) => /^\.(work|drill|restore)-/.test(name))).toEqual([]);

    const restored = await t.api('POST', '/api/settings/restore', {
      raw: { data: fs.readFileSync(done.last_result.file), contentType: 'application/vnd.signdesk.backup' },
      headers: { 'backup-passphrase': Buffer.from(PASSPHRASE).toString('base64') },
    });
    expect(restored.status, restored.text).toBe(200);
    const copy = await schedule();
    expect(copy).toMatchObject({ is_enabled: true, folder, next_run_time: null });
    expect(copy.restored_copy).toEqual({
      backup_made_time: restored.body.made_time,
      restored_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const refused = await t.api('POST', '/api/settings/backup_schedule/run');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/restored copy/);
    expect(fs.readdirSync(folder)).toHaveLength(1);

    const confirmed = await t.api('POST', '/api/settings/backup_schedule/confirm_restored_copy');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.restored_copy).toBeNull();
    await vi.waitFor(
      () => expect(fs.readdirSync(folder).filter((name) => name.endsWith('.sdbackup'))).toHaveLength(2),
      {
        timeout: 60_000,
        interval: 100,
      },
    );
    expect((await t.api('PUT', '/api/settings/backup_schedule', { body: { is_enabled: false } })).status).toBe(200);
  });

  it("fails the drill of a backup that lacks a contract's stored file, and says which", async () => {
    const folder = makeTempDir('signdesk-drill-lacking-');
    const data = Buffer.concat([await makePdf(), Buffer.from('% the drill looks for this one\n')]);
    expect((await t.api('POST', '/api/contracts', { raw: { data, contentType: 'application/pdf' } })).status).toBe(201);
    const hash = createHash('sha256').update(data).digest('hex');
    // Someone took it from the data folder (or the database): the backup cannot hold it.
    await stored.remove(t, hash);
    await backUpAndDrill(folder);
    expect((await schedule()).last_drill).toMatchObject({
      is_ok: false,
      error: `the stored file ${hash} is not in the backup`,
    });
    expect((await t.api('PUT', '/api/settings/backup_schedule', { body: { is_enabled: false } })).status).toBe(200);
  });

  it('makes one backup at a time: "Back up now" while one is being made is refused and queues none', async () => {
    const folder = makeTempDir('signdesk-once-');
    await backUpAndDrill(folder);
    // A backup under way, as the queue holds one: the schedule's job claimed, its lease running.
    const sql = rawSql(t.server.ctx.db);
    const queued = `SELECT id FROM jobs WHERE queue = 'backup' AND status = 'queued'`;
    const [job] = await sql.all<{ id: number }>(queued);
    const lease = t.server.ctx.now() + 3_600_000;
    await sql.run(`UPDATE jobs SET status = 'running', lease_until = ? WHERE id = ?`, lease, job!.id);
    const refused = await t.api('POST', '/api/settings/backup_schedule/run');
    expectProblem(refused, 409, 'conflict');
    expect(refused.body.detail).toBe('A backup is being made or checked now: its result shows here when it is done.');
    expect(await sql.all(queued)).toEqual([]);
    await sql.run(`UPDATE jobs SET status = 'queued', lease_until = NULL WHERE id = ?`, job!.id);
    expect((await t.api('PUT', '/api/settings/backup_schedule', { body: { is_enabled: false } })).status).toBe(200);
  });

  it('removes the scratch folders a crash left in the data folder at the next start', async () => {
    const dataDir = t.dataDir;
    await t.close();
    for (const name of ['.work-0123456789ab', '.restore-ba9876543210']) {
      fs.mkdirSync(path.join(dataDir, name, 'keys'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, name, 'keys', 'app-secret'), 'decrypted');
    }
    t = await startTestServer({}, dataDir);
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
