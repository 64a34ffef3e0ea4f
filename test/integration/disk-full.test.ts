import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkHost, type ForkedHost } from '../helpers/host-process';
import { makePdf, makePdfOfSize } from '../helpers/pdfs';
import { apiClient, makeAdminAndKey, makeTempDir, type ApiClient } from '../helpers/server';
import { signingClient } from '../helpers/signing';
import { expectProblem } from '../helpers/problems';

/**
 * DATA_DIR on a real, small file system (tmpfs, mounted as root as CI runs) that fills up:
 * the server keeps serving reads, refuses writes with 507 and a clear detail, never crashes
 * or hangs on its own log, and carries on once space returns.
 */
describe('a full disk', () => {
  let mountPoint: string;
  let host: ForkedHost | undefined;
  let api: ApiClient;
  let url: string;
  let link: string;
  const filler = () => path.join(mountPoint, 'filler');
  /** Every request has a deadline: a hung server fails the test instead of holding it. */
  const within = { signal: () => AbortSignal.timeout(15_000) };
  const call: ApiClient = (method, pathname, options = {}) =>
    api(method, pathname, { signal: within.signal(), ...options });

  beforeAll(async () => {
    mountPoint = makeTempDir('signdesk-full-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]);
    const key = await makeAdminAndKey(mountPoint, 'disk');
    host = forkHost({ env: { DATA_DIR: mountPoint, PORT: '0', LOG_LEVEL: 'debug' } });
    url = (await host.client.ready).url;
    api = apiClient(url, key);
    const contract = await api('POST', '/api/contracts', {
      raw: { data: await makePdf(), contentType: 'application/pdf' },
    });
    const party = await api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Eva', email: 'eva@example.test' },
    });
    await api('POST', `${contract.body.self}/send`, { body: { silent: true } });
    link = party.body.contract_url;
  });
  afterAll(async () => {
    if (host && host.child.exitCode === null && host.child.signalCode === null) host.child.kill('SIGKILL');
    await new Promise((resolve) =>
      host?.child.exitCode !== null || host.child.signalCode !== null
        ? resolve(null)
        : host.child.once('exit', resolve),
    );
    execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  /** Takes every free block of the file system. */
  function fillDisk(): void {
    const fd = fs.openSync(filler(), 'w');
    try {
      for (const size of [1 << 20, 1 << 12, 1]) {
        const chunk = Buffer.alloc(size, 0x5a);
        for (;;) {
          try {
            fs.writeSync(fd, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
            throw error;
          }
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  it(
    'serves reads, refuses writes with 507, keeps running while its log cannot be written, and recovers',
    { timeout: 120_000 },
    async () => {
      const contractsBefore = (await call('GET', '/api/contracts')).headers.get('pagination-items-total');
      const bigPdf = await makePdfOfSize(1_500_000);
      // Before it is full, a 24 MiB disk is already low (under LOW_DISK_MB's 2 GiB): the admin is told.
      const storage = await call('GET', '/api/settings/storage');
      expect(storage.body).toMatchObject({ data_folder: mountPoint, total_bytes: 24 * 2 ** 20, is_low: true });
      expect(storage.body.free_bytes).toBeLessThan(24 * 2 ** 20);
      fillDisk();

      // Enough refused writes to fill what is left of the log file's last block many times over.
      for (let attempt = 0; attempt < 25; attempt += 1) {
        const refused = await call('POST', '/api/contracts', { raw: { data: bigPdf, contentType: 'application/pdf' } });
        expectProblem(refused, 507, 'insufficient-storage');
        expect(refused.body.detail).toMatch(/disk .*full|space/i);
      }
      const signIn = await fetch(`${url}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-api-version': '1' },
        body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
        signal: within.signal(),
      });
      expect([201, 507]).toContain(signIn.status);
      // A backup download copies the database first: a full disk is a 507 problem, not a cut connection.
      const backup = await call('POST', '/api/settings/backup', { body: { passphrase: 'a long passphrase' } });
      expectProblem(backup, 507, 'insufficient-storage');
      expect(fs.readdirSync(mountPoint).filter((name) => name.startsWith('.work-'))).toEqual([]);

      // Reads go on: the API, the signing page and its state, the admin UI.
      const listed = await call('GET', '/api/contracts');
      expect(listed.status).toBe(200);
      expect(listed.headers.get('pagination-items-total')).toBe(contractsBefore);
      expect((await fetch(link, { signal: within.signal() })).status).toBe(200);
      expect((await signingClient(link).state()).status).toBe(200);
      expect((await fetch(`${url}/admin/`, { signal: within.signal() })).status).toBe(200);
      expect(host?.child.exitCode).toBeNull();

      // Space returns: writes work again, and the log is written again.
      fs.rmSync(filler());
      const created = await call('POST', '/api/contracts', { raw: { data: bigPdf, contentType: 'application/pdf' } });
      expect(created.status, created.text).toBe(201);
      expect((await call('GET', '/api/contracts')).headers.get('pagination-items-total')).toBe(
        String(Number(contractsBefore) + 1),
      );

      // And it still shuts down cleanly, the database whole.
      const stopped = await host!.client.shutdown(30_000);
      expect(stopped).toEqual({ code: 0, isKilled: false });
      const log = fs.readFileSync(path.join(mountPoint, 'logs', 'signdesk.log'), 'utf8');
      expect(log).toMatch(/"msg":"closed"/);
      expect(log).toMatch(/"level":40,.*"worker":"disk-watch".*the data folder's disk is almost full/);
      const database = new Database(path.join(mountPoint, 'signdesk.sqlite'), { readonly: true });
      try {
        expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        database.close();
      }
    },
  );
});
