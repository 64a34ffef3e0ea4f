import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { makeTempDir, startTestServer } from '../helpers/server';

/** Every folder and file under `dir` with its permission bits, e.g. { 'keys/app-secret': 0o600 }. */
function modesUnder(dir: string): Record<string, number> {
  const found: Record<string, number> = { '.': fs.statSync(dir).mode & 0o777 };
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      found[child] = fs.statSync(path.join(dir, child)).mode & 0o777;
      if (entry.isDirectory()) walk(child);
    }
  };
  walk('');
  return found;
}

/** On a shared PC, other accounts can read nothing of the office: folders 700, files 600. */
describe("the data folder is the office's account's alone", () => {
  it('makes every folder 700 and every file 600: database, WAL, keys, logs, lock', async () => {
    const t = await startTestServer({ logLevel: 'info' });
    try {
      const created = await t.api('POST', '/api/contracts', {
        raw: { data: await makePdf(), contentType: 'application/pdf' },
      });
      expect(created.status).toBe(201);
      expect((await t.api('GET', '/api/settings/signing_certificate')).status).toBe(200);
      const modes = modesUnder(t.dataDir);
      for (const name of [
        'signdesk.sqlite',
        'signdesk.sqlite-wal',
        'signdesk.sqlite-shm',
        'keys/app-secret',
        'keys/signing-identity.json',
        'logs/signdesk.log',
        'signdesk.lock',
      ])
        expect(Object.keys(modes), name).toContain(name);
      for (const [name, mode] of Object.entries(modes)) {
        const isDir = fs.statSync(path.join(t.dataDir, name)).isDirectory();
        expect([name, mode.toString(8)]).toEqual([name, isDir ? '700' : '600']);
      }
    } finally {
      await t.close();
    }
  });

  it('tightens a data folder an older version left readable, at the next start', async () => {
    const dataDir = makeTempDir();
    const first = await startTestServer({}, dataDir);
    await first.close();
    fs.chmodSync(dataDir, 0o755);
    fs.chmodSync(path.join(dataDir, 'files'), 0o755);
    fs.chmodSync(path.join(dataDir, 'signdesk.sqlite'), 0o644);
    fs.writeFileSync(path.join(dataDir, 'files', 'old.bin'), 'x', { mode: 0o644 });
    const second = await startTestServer({}, dataDir);
    try {
      const modes = modesUnder(dataDir);
      expect(modes['.']).toBe(0o700);
      expect(modes.files).toBe(0o700);
      expect(modes['signdesk.sqlite']).toBe(0o600);
      expect(modes['files/old.bin']).toBe(0o600);
    } finally {
      await second.close();
    }
  });
});
