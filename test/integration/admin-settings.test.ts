import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInClient, type SessionClient } from '../helpers/session';
import { rawSql } from '../../server/db/raw-sql';

describe('general settings', () => {
  let t: TestServer;
  let admin: SessionClient;
  beforeAll(async () => {
    t = await startTestServer();
    admin = await signInClient(t.url, 'admin', 'correct horse');
  });
  afterAll(() => t.close());

  it('start at the environment defaults', async () => {
    const response = await admin.request('GET', '/api/settings/general');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      office_name: '',
      office_email: '',
      public_base_url: null,
      effective_public_base_url: t.url,
      time_zone: null,
      effective_time_zone: 'Europe/Stockholm',
      signing_frame_origins: [],
    });
  });

  it('move every link to the public base URL set', async () => {
    await t.api('POST', '/api/users', { body: { username: 'second', email: 'second@office.test' } });
    const saved = await admin.request('PUT', '/api/settings/general', {
      body: { public_base_url: 'https://sign.office.example/' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.public_base_url).toBe('https://sign.office.example');
    expect(saved.body.effective_public_base_url).toBe('https://sign.office.example');
    const missing = await t.api('GET', '/api/users/999');
    expect(missing.body.type).toBe('https://sign.office.example/apidoc/v1/posting_data#not-found');
    const page = await t.api('GET', '/api/users?per_page=1');
    expect(page.headers.get('link') ?? '').toMatch(/^<https:\/\/sign\.office\.example\/api\/users\?/);
    const back = await admin.request('PUT', '/api/settings/general', { body: { public_base_url: null } });
    expect(back.body.effective_public_base_url).toBe(t.url);
  });

  it('format timestamps in the time zone set', async () => {
    const before = (await t.api('GET', '/api/users/1')).body.created_time;
    const saved = await admin.request('PUT', '/api/settings/general', { body: { time_zone: 'America/New_York' } });
    expect(saved.body.effective_time_zone).toBe('America/New_York');
    const after = (await t.api('GET', '/api/users/1')).body.created_time;
    const hours = (Date.parse(before.replace(' ', 'T') + 'Z') - Date.parse(after.replace(' ', 'T') + 'Z')) / 3_600_000;
    expect([5, 6]).toContain(hours);
    await admin.request('PUT', '/api/settings/general', { body: { time_zone: null } });
    expect((await t.api('GET', '/api/users/1')).body.created_time).toBe(before);
  });

  it('refuse bad values one line per field and keep the old ones', async () => {
    const response = await admin.request('PUT', '/api/settings/general', {
      body: { public_base_url: 'ftp://x', time_zone: 'Mars/Olympus', office_email: 'no', colour: 'red' },
    });
    expect(response.status).toBe(400);
    const lines = response.body.validation_errors.join('\n');
    for (const field of ['public_base_url', 'time_zone', 'office_email', 'colour']) expect(lines).toContain(field);
    const now = await admin.request('GET', '/api/settings/general');
    expect(now.body.public_base_url).toBeNull();
    expect(now.body.time_zone).toBeNull();
  });

  it('say plainly when the signing certificate functions are not in this build', async () => {
    const response = await admin.request('GET', '/api/settings/signing_certificate');
    expect(response.status).toBe(200);
    expect(typeof response.body.is_available).toBe('boolean');
    if (!response.body.is_available) {
      const upload = await admin.request('POST', '/api/settings/signing_certificate', {
        body: { pkcs12: 'AAAA', passphrase: 'x' },
      });
      expect(upload.status).toBe(503);
    }
  });
});

describe('backup and restore in the running appliance', { timeout: 180_000 }, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const PASSPHRASE = 'en lång lösenfras för kontoret';
  const header = (passphrase: string) => ({ 'backup-passphrase': Buffer.from(passphrase, 'utf8').toString('base64') });
  const restore = (admin: SessionClient, data: Uint8Array, passphrase: string | undefined) =>
    admin.request('POST', '/api/settings/restore', {
      raw: { data, contentType: 'application/vnd.signdesk.backup' },
      headers: passphrase === undefined ? {} : header(passphrase),
    });

  it('downloads an encrypted whole-office backup and restores it, keys included, ending every session', async () => {
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    await t.api('POST', '/api/contract_templates', { body: { name: 'Kept' } });
    // The app secret where the office keeps it (DATA_DIR/keys on SQLite, a sealed row on PostgreSQL).
    const keys = t.server.ctx.keys;
    const secret = (await keys.read('app-secret'))!;
    const backup = await admin.request('POST', '/api/settings/backup', { body: { passphrase: PASSPHRASE } });
    expect(backup.status).toBe(200);
    expect(backup.headers.get('content-type')).toBe('application/vnd.signdesk.backup');
    expect(backup.headers.get('content-disposition')).toMatch(
      /^attachment; filename="signdesk-\d{8}-\d{6}\.sdbackup"$/,
    );
    const bytes = backup.body as Uint8Array;

    await t.api('POST', '/api/contract_templates', { body: { name: 'Made after the backup' } });
    await keys.replace('app-secret', Buffer.alloc(32, 7));
    const restored = await restore(admin, bytes, PASSPHRASE);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({
      restored: true,
      office_name: expect.any(String),
      made_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} /),
    });
    const names = (await t.api('GET', '/api/contract_templates?per_page=100')).body.map((row: any) => row.name);
    expect(names).toEqual(['Kept']);
    expect((await keys.read('app-secret'))!.equals(secret)).toBe(true);
    expect((await admin.request('GET', '/api/session')).status).toBe(401);
    expect(fs.readdirSync(t.dataDir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('refuses a wrong passphrase, a foreign or damaged file, and changes nothing', async () => {
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    const bytes = (await admin.request('POST', '/api/settings/backup', { body: { passphrase: PASSPHRASE } }))
      .body as Uint8Array;
    const wrong = await restore(admin, bytes, 'not the passphrase');
    expect(wrong.status).toBe(400);
    expect(wrong.body.validation_errors).toEqual([
      'passphrase: The passphrase is wrong (or the beginning of the file is damaged).',
    ]);
    const garbage = await restore(admin, new TextEncoder().encode('not a backup at all, nothing like one'), PASSPHRASE);
    expect(garbage.body.validation_errors).toEqual(['file: The file is not a SignDesk backup.']);
    const cut = await restore(admin, bytes.subarray(0, bytes.length - 10), PASSPHRASE);
    expect(cut.status).toBe(400);
    expect(cut.body.detail).toMatch(/^Nothing was changed: The file is incomplete/);
    const missing = await restore(admin, bytes, undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.validation_errors).toEqual(['passphrase: is missing']);
    expect((await admin.request('GET', '/api/session')).status).toBe(200);
    expect((await t.api('GET', '/api/contract_templates')).body.map((row: any) => row.name)).toEqual(['Kept']);
  });

  it('runs scheduled backups into a folder, keeps the newest N, stores the passphrase sealed, and shows the last result', async () => {
    const folder = path.join(t.dataDir, '..', `scheduled-${path.basename(t.dataDir)}`);
    // The office was restored above: it is a restored copy, whose schedule waits until confirmed.
    expect((await t.api('GET', '/api/settings/backup_schedule')).body.restored_copy).not.toBeNull();
    const copy = await t.api('POST', '/api/settings/backup_schedule/confirm_restored_copy');
    expect(copy.body.restored_copy).toBeNull();
    const off = await t.api('GET', '/api/settings/backup_schedule');
    expect(off.body).toMatchObject({
      is_enabled: false,
      has_passphrase: false,
      last_result: null,
      next_run_time: null,
    });
    const incomplete = await t.api('PUT', '/api/settings/backup_schedule', { body: { is_enabled: true } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.validation_errors).toEqual([
      'folder: is needed to enable scheduled backups',
      'passphrase: is needed to enable scheduled backups',
    ]);
    expect((await t.api('PUT', '/api/settings/backup_schedule', { body: { folder: 'relative/path' } })).status).toBe(
      400,
    );

    const on = await t.api('PUT', '/api/settings/backup_schedule', {
      body: { is_enabled: true, folder, interval_hours: 24, keep: 2, passphrase: PASSPHRASE },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ is_enabled: true, folder, interval_hours: 24, keep: 2, has_passphrase: true });
    expect(JSON.stringify(on.body)).not.toContain(PASSPHRASE);
    const stored = (await rawSql(t.server.ctx.db).all(
      "SELECT value FROM settings WHERE key LIKE 'backup.%'",
    )) as Array<{ value: string }>;
    expect(stored.some((row) => row.value.includes(PASSPHRASE))).toBe(false);

    const results = async () => (await t.api('GET', '/api/settings/backup_schedule')).body;
    // A backup is done once its restore drill is: "Back up now" before that is refused (one at a time).
    const isDrilled = async () => {
      const { last_result: result, last_drill: drill } = await results();
      return result?.file ? drill?.file === result.file : false;
    };
    await vi.waitFor(async () => expect(await isDrilled()).toBe(true), { timeout: 30_000, interval: 50 });
    for (let run = 0; run < 2; run += 1) {
      const before = (await results()).last_result.file;
      expect((await t.api('POST', '/api/settings/backup_schedule/run')).status).toBe(200);
      await vi.waitFor(
        async () => {
          expect((await results()).last_result.file).not.toBe(before);
          expect(await isDrilled()).toBe(true);
        },
        { timeout: 30_000, interval: 50 },
      );
    }
    const last = (await results()).last_result;
    expect(last).toMatchObject({ error: null, time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    expect(fs.statSync(last.file).size).toBe(last.size_bytes);
    const files = fs.readdirSync(folder).sort();
    expect(files).toHaveLength(2);
    expect(files.every((name) => /^signdesk-backup-\d{8}-\d{6}(-\d+)?\.sdbackup$/.test(name))).toBe(true);
    expect(files.map((name) => path.join(folder, name))).toContain(last.file);
    expect((await results()).next_run_time).toMatch(/^\d{4}-\d{2}-\d{2} /);

    // A folder that cannot be written: said on save; and a failed run is shown with its error.
    const blocked = path.join(folder, 'a-file');
    fs.writeFileSync(blocked, '');
    const refused = await t.api('PUT', '/api/settings/backup_schedule', {
      body: { folder: path.join(blocked, 'sub') },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.validation_errors[0]).toMatch(/^folder: cannot be written to/);
    fs.rmSync(folder, { recursive: true });
    fs.writeFileSync(folder, 'in the way');
    expect((await t.api('POST', '/api/settings/backup_schedule/run')).status).toBe(200);
    await vi.waitFor(async () => expect((await results()).last_result.error).toBeTruthy(), {
      timeout: 30_000,
      interval: 50,
    });
    expect((await results()).last_result).toMatchObject({ file: null, size_bytes: null });
    fs.rmSync(folder);

    expect(
      (await t.api('PUT', '/api/settings/backup_schedule', { body: { is_enabled: false } })).body.next_run_time,
    ).toBeNull();
    expect((await t.api('POST', '/api/settings/backup_schedule/run')).status).toBe(409);
  });

  it('is for administrators with a session or token only', async () => {
    const anonymous = await fetch(`${t.url}/api/settings/backup`, {
      method: 'POST',
      headers: { 'accept-api-version': '1', 'content-type': 'application/json' },
      body: '{"passphrase":"a long passphrase"}',
    });
    expect(anonymous.status).toBe(401);
    expect((await t.api('GET', '/api/settings/backup')).status).toBe(405);
  });
});
