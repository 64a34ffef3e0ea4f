import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInClient, type SessionClient } from '../helpers/session';

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
    const saved = await admin.request('PUT', '/api/settings/general', { body: { public_base_url: 'https://sign.office.example/' } });
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
      const upload = await admin.request('POST', '/api/settings/signing_certificate', { body: { pkcs12: 'AAAA', passphrase: 'x' } });
      expect(upload.status).toBe(503);
    }
  });
});

describe('backup and restore', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('downloads a consistent SQLite file and restores it, ending every session', async () => {
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    await t.api('POST', '/api/contract_templates', { body: { name: 'Kept' } });
    const backup = await admin.request('GET', '/api/settings/backup');
    expect(backup.status).toBe(200);
    expect(backup.headers.get('content-type')).toBe('application/vnd.sqlite3');
    expect(backup.headers.get('content-disposition')).toMatch(/^attachment; filename="signdesk-\d{8}-\d{6}\.sqlite"$/);
    const bytes = backup.body as Uint8Array;
    expect(Buffer.from(bytes.subarray(0, 16)).toString('latin1')).toBe('SQLite format 3\0');

    await t.api('POST', '/api/contract_templates', { body: { name: 'Made after the backup' } });
    const restored = await admin.request('POST', '/api/settings/restore', { raw: { data: bytes, contentType: 'application/vnd.sqlite3' } });
    expect(restored.status).toBe(200);
    expect(restored.body.restored).toBe(true);
    const names = (await t.api('GET', '/api/contract_templates?per_page=100')).body.map((row: any) => row.name);
    expect(names).toEqual(['Kept']);
    expect((await admin.request('GET', '/api/session')).status).toBe(401);
  });

  it('refuses a file that is not a SignDesk database and changes nothing', async () => {
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    const garbage = await admin.request('POST', '/api/settings/restore', {
      raw: { data: new TextEncoder().encode('not a database at all'), contentType: 'application/octet-stream' },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.validation_errors).toEqual(['file: The file is not an SQLite database.']);

    const { default: Database } = await import('better-sqlite3');
    const other = new Database(':memory:');
    other.exec('CREATE TABLE notes (text TEXT)');
    const foreign = other.serialize();
    other.close();
    const wrong = await admin.request('POST', '/api/settings/restore', { raw: { data: foreign, contentType: 'application/vnd.sqlite3' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.validation_errors[0]).toMatch(/not a SignDesk backup/);

    const truncated = (await admin.request('GET', '/api/settings/backup')).body as Uint8Array;
    const damaged = await admin.request('POST', '/api/settings/restore', {
      raw: { data: truncated.subarray(0, 4096 + 100), contentType: 'application/vnd.sqlite3' },
    });
    expect(damaged.status).toBe(400);

    expect((await admin.request('GET', '/api/session')).status).toBe(200);
    expect((await t.api('GET', '/api/contract_templates')).body.map((row: any) => row.name)).toEqual(['Kept']);
  });

  it('is for administrators with a session or token only', async () => {
    const response = await t.api('GET', '/api/settings/backup');
    expect(response.status).toBe(200);
    const anonymous = await fetch(`${t.url}/api/settings/backup`, { headers: { 'accept-api-version': '1' } });
    expect(anonymous.status).toBe(401);
  });
});
