import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sodium from 'sodium-native';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecryptStream, createEncryptStream } from '../../server/crypto/backup-cipher';
import { backupCli, snapshotDir } from '../helpers/backup';
import { makePdf } from '../helpers/pdfs';
import { makeTempDir, servedPdf, startTestServer, type TestServer } from '../helpers/server';

const PASSPHRASE = 'a passphrase long enough';
const FAST = { opslimit: sodium.crypto_pwhash_OPSLIMIT_MIN, memlimit: sodium.crypto_pwhash_MEMLIMIT_MIN };

type Entry = { name: string; data: Buffer; type?: 'file' | 'symlink' };

async function collect(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The entries of a real backup, decrypted. */
async function entriesOf(backup: Buffer): Promise<Entry[]> {
  const entries: Entry[] = [];
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    void collect(stream as AsyncIterable<Buffer>).then((data) => {
      entries.push({ name: header.name, data });
      next();
    });
  });
  await pipeline(Readable.from([backup]), createDecryptStream(PASSPHRASE), extract);
  return entries;
}

/** A backup file made of these entries, encrypted with the right passphrase (so only its contents are hostile). */
async function archiveOf(entries: Entry[], cutTarAt?: number): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of entries) {
    if (entry.type === 'symlink') pack.entry({ name: entry.name, type: 'symlink', linkname: '/etc/passwd' });
    else pack.entry({ name: entry.name, size: entry.data.length }, entry.data);
  }
  pack.finalize();
  let plain = await collect(pack as unknown as AsyncIterable<Buffer>);
  if (cutTarAt !== undefined) plain = plain.subarray(0, cutTarAt);
  return collect(Readable.from([plain]).pipe(createEncryptStream(PASSPHRASE, FAST)));
}

describe('a damaged or hostile backup file', { timeout: 180_000 }, () => {
  let t: TestServer;
  let good: Entry[];
  let uploaded: { pdf: Uint8Array; self: string };
  const outside = makeTempDir('signdesk-outside-');

  beforeAll(async () => {
    t = await startTestServer();
    // A contract's uploaded PDF: a file of DATA_DIR/files, which the backup counts.
    const pdf = await makePdf();
    const created = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } });
    expect(created.status).toBe(201);
    uploaded = { pdf, self: created.body.self };
    const made = await fetch(`${t.url}/api/settings/backup`, {
      method: 'POST',
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ passphrase: PASSPHRASE }),
    });
    expect(made.status).toBe(200);
    good = await entriesOf(Buffer.from(await made.arrayBuffer()));
    expect(good.map((entry) => entry.name)).toContain('keys/app-secret');
  });
  afterAll(async () => {
    await t?.close();
  });

  const restore = (bytes: Buffer) =>
    t.api('POST', '/api/settings/restore', {
      raw: { data: bytes, contentType: 'application/vnd.signdesk.backup' },
      headers: { 'backup-passphrase': Buffer.from(PASSPHRASE).toString('base64') },
    });

  it('is refused with a clear problem, changes nothing, and the server runs on (API and CLI)', async () => {
    const secret = good.find((entry) => entry.name === 'keys/app-secret')!;
    const database = good.find((entry) => entry.name === 'database/signdesk.sqlite')!;
    const cases: Array<[string, Buffer, RegExp]> = [
      ['duplicate entry', await archiveOf([...good, secret]), /unexpected entry \(keys\/app-secret\)/],
      ['unexpected entry', await archiveOf([...good, { name: 'other/x', data: Buffer.from('x') }]), /unexpected/],
      [
        'path traversal',
        await archiveOf([...good, { name: `files/../../../..${outside}/pwned`, data: Buffer.from('x') }]),
        /unexpected entry/,
      ],
      [
        'absolute path',
        await archiveOf([...good, { name: `${outside}/pwned2`, data: Buffer.from('x') }]),
        /unexpected/,
      ],
      [
        'symlink',
        await archiveOf([...good, { name: 'keys/evil', data: Buffer.alloc(0), type: 'symlink' }]),
        /unexpected/,
      ],
      [
        'huge key entry',
        await archiveOf([...good, { name: 'keys/huge', data: Buffer.alloc(2 * 1024 * 1024, 1) }]),
        /far too big/,
      ],
      ['truncated archive', await archiveOf(good, 1024 + database.data.length / 2), /damaged|incomplete|lacks/],
      [
        'a stored file left out',
        await archiveOf(good.filter((entry) => !entry.name.startsWith('files/'))),
        /holds 0 stored files of the 1 it was written with/,
      ],
      [
        'a stored file slipped in',
        await archiveOf([...good, { name: 'files/ab/abcd', data: Buffer.from('x') }]),
        /holds 2 stored files of the 1 it was written with/,
      ],
      [
        'a manifest not ours',
        await archiveOf([
          ...good.filter((entry) => entry.name !== 'manifest.json'),
          {
            name: 'manifest.json',
            data: Buffer.from(JSON.stringify({ format: 2, keys: 'app-secret', file_count: 1 })),
          },
        ]),
        /its manifest is not one SignDesk wrote/,
      ],
    ];
    const before = snapshotDir(t.dataDir);
    for (const [label, bytes, message] of cases) {
      const refused = await restore(bytes);
      expect(refused.status, label).toBe(400);
      expect(refused.headers.get('content-type'), label).toContain('application/problem+json');
      expect(refused.body.detail, label).toMatch(message);
      expect(refused.body.detail, label).toMatch(/Nothing was changed/);
      expect(snapshotDir(t.dataDir), label).toEqual(before);
      expect((await t.api('GET', '/api/users/1')).status, label).toBe(200);
    }
    expect(fs.readdirSync(outside)).toEqual([]);

    // The CLI: the same words, no stack (with the server stopped, as a restore needs).
    await t.close();
    const stopped = snapshotDir(t.dataDir);
    const file = path.join(makeTempDir(), 'dup.sdbackup');
    fs.writeFileSync(file, cases[0]![1]);
    const cli = await backupCli(t.dataDir, ['backup', 'restore', '--in', file], PASSPHRASE);
    expect(cli.code).toBe(1);
    expect(cli.err.join('\n')).toMatch(/^Nothing was changed: The file is damaged: it holds an unexpected entry/);
    expect(cli.err.join('\n')).not.toMatch(/\n\s+at /);
    expect(snapshotDir(t.dataDir)).toEqual(stopped);
    t = await startTestServer({}, t.dataDir);
  });

  it('still reads a format 1 backup, which listed its stored files, and checks the list', async () => {
    const manifest = JSON.parse(good.find((entry) => entry.name === 'manifest.json')!.data.toString()) as {
      file_count?: number;
    };
    const stored = good.filter((entry) => entry.name.startsWith('files/'));
    expect(manifest.file_count).toBe(1);
    delete manifest.file_count;
    const formatOne = (entries: Entry[]) =>
      archiveOf([
        ...entries.filter((entry) => entry.name !== 'manifest.json'),
        {
          name: 'manifest.json',
          data: Buffer.from(
            JSON.stringify({ ...manifest, format: 1, files: stored.map((entry) => entry.name.slice('files/'.length)) }),
          ),
        },
      ]);
    const dir = makeTempDir();
    const file = path.join(makeTempDir(), 'one.sdbackup');

    fs.writeFileSync(file, await formatOne(good.filter((entry) => !entry.name.startsWith('files/'))));
    const lacking = await backupCli(dir, ['backup', 'restore', '--in', file], PASSPHRASE);
    expect(lacking.code).toBe(1);
    expect(lacking.err.join('\n')).toMatch(/^Nothing was changed: The file is damaged: it lacks files\//);

    fs.writeFileSync(file, await formatOne(good));
    const done = await backupCli(dir, ['backup', 'restore', '--in', file], PASSPHRASE);
    expect(done.err).toEqual([]);
    const restored = await startTestServer({}, dir);
    try {
      expect((await servedPdf(restored, uploaded.self)).equals(Buffer.from(uploaded.pdf))).toBe(true);
    } finally {
      await restored.close();
    }
  });
});
