import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forkHost, type ForkedHost } from '../helpers/host-process';
import { apiClient, makeAdminAndKey, makeTempDir, type ApiClient } from '../helpers/server';
import { signingClient } from '../helpers/signing';

const WORD_CONTRACT = path.join(import.meta.dirname, '../fixtures/word-processor/contract-carlito-word.pdf');

/**
 * The database keeps its scratch data (the journal of one statement within a transaction) in
 * memory, not in a file of the system's temporary folder: a full /tmp (or one without a free
 * inode) does not stop the office's work, and no page of the office's database goes to a
 * folder outside DATA_DIR. SQLite takes its temporary folder from SQLITE_TMPDIR when it
 * starts, so the server runs in a process of its own, pointed at a real file system with no
 * room for one more file (tmpfs, mounted as root as CI runs).
 */
describe("SQLite's temporary files", () => {
  let fullTmp: string;
  let dataDir: string;
  let host: ForkedHost | undefined;
  let api: ApiClient;

  beforeAll(async () => {
    fullTmp = makeTempDir('signdesk-full-tmp-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,nr_inodes=1', 'tmpfs', fullTmp]);
    dataDir = makeTempDir('signdesk-tmp-office-');
    const key = await makeAdminAndKey(dataDir, 'tmp');
    host = forkHost({ env: { DATA_DIR: dataDir, PORT: '0', SQLITE_TMPDIR: fullTmp } });
    api = apiClient((await host.client.ready).url, key);
  });
  afterAll(async () => {
    if (host && host.child.exitCode === null && host.child.signalCode === null) {
      const exited = new Promise((resolve) => host?.child.once('exit', resolve));
      host.child.kill('SIGTERM');
      await exited;
    }
    execFileSync('umount', [fullTmp]);
    fs.rmSync(fullTmp, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('are not needed: with no room in the temporary folder a word-processor contract is uploaded, sent and signed', async () => {
    expect(() => fs.writeFileSync(path.join(fullTmp, 'probe'), 'x')).toThrow(/ENOSPC/);
    const created = await api('POST', '/api/contracts?name=Hyresavtal', {
      raw: { data: fs.readFileSync(WORD_CONTRACT), contentType: 'application/pdf' },
    });
    expect(created.status).toBe(201);
    const party = await api('POST', `${created.body.self}/parties`, {
      body: { name: 'Märta Ångström', email: 'marta@example.se' },
    });
    expect(party.status).toBe(201);
    expect((await api('POST', `${created.body.self}/send`, { body: { silent: true } })).status).toBe(200);
    const signing = signingClient(party.body.contract_url);
    await signing.state();
    expect((await signing.accept({}, 'Märta Ångström')).status).toBe(200);
    const listed = await api('GET', '/api/contracts?q=Hyresavtal');
    expect(listed.body.map((contract: { name: string }) => contract.name)).toEqual(['Hyresavtal']);
  });
});
