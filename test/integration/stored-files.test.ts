import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backupCli } from '../helpers/backup';
import { makeTempDir, servedPdf, startTestServer, type TestServer } from '../helpers/server';
import type { Database } from '../../server/db/database';
import { storeOf } from '../../server/db/stores';
import { testBackend } from '../helpers/databases';
import { fileOf, stored } from '../helpers/stored-files';
import { listFiles } from '../../server/backup/write-backup';

const PDF = 'application/pdf';
const WORD_PDF = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/word-processor/contract-sans.pdf'));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const backend = testBackend();
const sql = (db: Database, text: string, params: unknown[] = []) => storeOf(db).sql(text).get(params);
const exec = (db: Database, text: string, params: unknown[] = []) => storeOf(db).sql(text).run(params);
const count = async (db: Database, table: string) => Number((await sql(db, `SELECT count(*) AS n FROM ${table}`))?.n);

/**
 * An upload's bytes are kept under their SHA-256 (a file of DATA_DIR/files on SQLite, chunks in
 * the database on PostgreSQL), written before the transaction that names them; what no row
 * claims any more goes at the next start (on PostgreSQL once unclaimed for an hour).
 */
describe(`stored files on ${backend}`, () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const upload = async (server: TestServer, data: Uint8Array) =>
    server.api('POST', '/api/contracts', { raw: { data, contentType: PDF } });

  it("keeps an upload as the office's own file under its SHA-256 and serves it byte for byte", async () => {
    t = await startTestServer();
    const created = await upload(t, WORD_PDF);
    expect(created.status, created.text).toBe(201);
    expect(await stored.hashes(t)).toEqual([sha256(WORD_PDF)]);
    const file = fileOf(t.dataDir, sha256(WORD_PDF));
    if (backend === 'postgres') expect(fs.existsSync(file)).toBe(false);
    else expect(fs.readFileSync(file).equals(WORD_PDF)).toBe(true);
    if (backend === 'sqlite' && process.platform !== 'win32') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    }
    const row = await sql(
      t.server.ctx.db,
      'SELECT in_files AS "inFiles", length(data) AS "inDatabase", size FROM stored_files',
    );
    expect({ inFiles: Boolean(row?.inFiles), inDatabase: Number(row?.inDatabase), size: Number(row?.size) }).toEqual({
      inFiles: true,
      inDatabase: 0,
      size: WORD_PDF.length,
    });
    expect((await servedPdf(t, created.body.self)).equals(WORD_PDF)).toBe(true);
    // The same bytes again are the same file and the same row.
    expect((await upload(t, WORD_PDF)).status).toBe(201);
    expect(await stored.hashes(t)).toEqual([sha256(WORD_PDF)]);
    expect(await count(t.server.ctx.db, 'stored_files')).toBe(1);
  });

  it('leaves nothing behind for a refused upload', async () => {
    t = await startTestServer();
    const damaged = Buffer.concat([WORD_PDF.subarray(0, 4000), Buffer.from('\n%%EOF trailing garbage')]);
    for (const body of [damaged, Buffer.from('%PDF-1.7\nnot really\nstartxref\n0\n%%EOF'), Buffer.alloc(0)]) {
      const response = await upload(t, body);
      expect(response.status).toBe(400);
      expect(response.body.type).toMatch(/#invalid-pdf$/);
    }
    expect(await stored.hashes(t)).toEqual([]);
    const incoming = fs.readdirSync(t.dataDir).filter((name) => name.startsWith('.incoming-'));
    for (const name of incoming) expect(fs.readdirSync(path.join(t.dataDir, name))).toEqual([]);
    expect(await count(t.server.ctx.db, 'unclaimed_files')).toBe(0);
  });

  it("removes a deleted draft's file at the next start, and keeps a file another contract still uses", async () => {
    const dataDir = makeTempDir();
    t = await startTestServer({}, dataDir);
    const other = Buffer.concat([WORD_PDF, Buffer.from('% other bytes, the same pages\n')]);
    const kept = await upload(t, WORD_PDF);
    const twin = await upload(t, WORD_PDF);
    const deleted = await upload(t, other);
    for (const response of [kept, twin, deleted]) expect(response.status, response.text).toBe(201);
    expect((await t.api('DELETE', deleted.body.self)).status).toBe(204);
    expect((await t.api('DELETE', twin.body.self)).status).toBe(204);
    // Until the next start the file stays: a backup running beside the server may still read it.
    expect(await stored.hashes(t)).toContain(sha256(other));
    // A crash left a staged upload and a placed file whose row never committed.
    const orphan = Buffer.from('%PDF-1.7 an upload cut off before its commit');
    await stored.plant(t, orphan);
    await exec(t.server.ctx.db, 'INSERT INTO unclaimed_files (sha256, since) VALUES (?, ?)', [
      sha256(orphan),
      Date.now(),
    ]);
    // PostgreSQL's sweep takes what has been unclaimed for an hour (another instance may be
    // placing it right now): the marks are made that old.
    if (backend === 'postgres')
      await exec(t.server.ctx.db, 'UPDATE unclaimed_files SET since = ?', [Date.now() - 2 * 60 * 60 * 1000]);
    const staged = path.join(dataDir, '.incoming-0123456789ab');
    fs.mkdirSync(staged, { recursive: true });
    fs.writeFileSync(path.join(staged, 'half-written'), 'x');
    await t.close();

    t = await startTestServer({}, dataDir);
    expect(await stored.hashes(t)).toEqual([sha256(WORD_PDF)]);
    expect(fs.existsSync(staged)).toBe(false);
    expect(await count(t.server.ctx.db, 'unclaimed_files')).toBe(0);
    expect((await servedPdf(t, kept.body.self)).equals(WORD_PDF)).toBe(true);
  });

  it('makes a hash folder again when someone removed it after the server made it', async () => {
    t = await startTestServer();
    const first = await upload(t, WORD_PDF);
    expect(first.status, first.text).toBe(201);
    // Other bytes under the same folder (the first two hex digits of their hash).
    const prefix = sha256(WORD_PDF).slice(0, 2);
    let second = WORD_PDF;
    for (let round = 0; sha256(second).slice(0, 2) !== prefix || round === 0; round += 1)
      second = Buffer.concat([WORD_PDF, Buffer.from(`% variant ${round}\n`)]);
    expect((await t.api('DELETE', first.body.self)).status).toBe(204);
    // (PostgreSQL has no folders: the same uploads, nothing to take away.)
    if (backend === 'sqlite') fs.rmSync(path.dirname(fileOf(t.dataDir, sha256(WORD_PDF))), { recursive: true });

    const created = await upload(t, second);
    expect(created.status, created.text).toBe(201);
    expect((await servedPdf(t, created.body.self)).equals(second)).toBe(true);
  });

  it("answers a clear problem, not a crash, when a stored file's bytes were taken away", async () => {
    t = await startTestServer();
    const created = await upload(t, WORD_PDF);
    await stored.remove(t, sha256(WORD_PDF));
    const response = await fetch(`${t.url}${created.body.self}/pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.text()).not.toMatch(/at .*\.ts:\d+/);
    expect((await t.api('GET', '/api/contracts')).status).toBe(200);
  });

  it('backs up the files its database names, and a restored office serves them', async () => {
    t = await startTestServer();
    const created = await upload(t, WORD_PDF);
    // A file no row names (an upload cut off before its commit): not the office's, not backed up.
    await stored.plant(t, Buffer.from('%PDF-1.7 never committed'));
    const made = await fetch(`${t.url}/api/settings/backup`, {
      method: 'POST',
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ passphrase: 'a passphrase long enough' }),
    });
    expect(made.status).toBe(200);
    const backup = path.join(makeTempDir(), 'office.sdbackup');
    fs.writeFileSync(backup, Buffer.from(await made.arrayBuffer()));
    await t.close();

    const elsewhere = makeTempDir();
    const restored = await backupCli(elsewhere, ['backup', 'restore', '--in', backup], 'a passphrase long enough');
    expect(restored.err).toEqual([]);
    expect(listFiles(path.join(elsewhere, 'files'))).toEqual([`${sha256(WORD_PDF).slice(0, 2)}/${sha256(WORD_PDF)}`]);
    t = await startTestServer({}, elsewhere);
    expect((await servedPdf(t, created.body.self)).equals(WORD_PDF)).toBe(true);
  });
});
