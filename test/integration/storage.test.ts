import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../server/index';
import { apiClient, makeTempDir, startTestServer, testConfig } from '../helpers/server';

const MIGRATIONS = path.resolve('server/db/migrations');

describe('storage in DATA_DIR', () => {
  it('lays out the database, files, keys and logs', async () => {
    const t = await startTestServer();
    await t.close();
    for (const entry of ['signdesk.sqlite', 'files', 'keys', 'logs']) {
      expect(fs.existsSync(path.join(t.dataDir, entry))).toBe(true);
    }
    const db = new Database(path.join(t.dataDir, 'signdesk.sqlite'), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('keeps everything across a restart on the same DATA_DIR, and migrates once', async () => {
    const dataDir = makeTempDir();
    const first = await startTestServer({}, dataDir);
    const created = await first.api('POST', '/api/contract_templates', {
      body: { name: 'Avtal för hyra', content: 'Hyresgäst: Åsa Öberg' },
    });
    const user = await first.api('POST', '/api/users', {
      body: { username: 'kept', email: 'kept@office.test', password: 'long enough' },
    });
    await first.close();

    const second = await createServer(testConfig(dataDir));
    try {
      const api = apiClient(second.url, first.adminKey);
      const template = await api('GET', created.body.self);
      expect(template.status).toBe(200);
      expect(template.body).toEqual(created.body);
      expect((await api('GET', user.body.self)).body.username).toBe('kept');
    } finally {
      await second.close();
    }

    const db = new Database(path.join(dataDir, 'signdesk.sqlite'), { readonly: true });
    const applied = db.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number };
    const files = fs.readdirSync(MIGRATIONS).filter((name) => name.endsWith('.sql'));
    expect(applied.n).toBe(files.length);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('stores no secret in clear: passwords and API key secrets are hashes', async () => {
    const t = await startTestServer();
    await t.api('POST', '/api/users', {
      body: { username: 'pw', email: 'pw@office.test', password: 'hunter2hunter2' },
    });
    await t.close();
    const raw = fs.readFileSync(path.join(t.dataDir, 'signdesk.sqlite')).toString('latin1');
    expect(raw).not.toContain('hunter2hunter2');
    expect(raw).not.toContain(t.adminKey.split(':')[1]);
    const db = new Database(path.join(t.dataDir, 'signdesk.sqlite'), { readonly: true });
    const hash = db.prepare("SELECT password_hash AS h FROM users WHERE username = 'pw'").get() as { h: string };
    expect(hash.h).toMatch(/^scrypt\$/);
    db.close();
  });
});
