import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/database';
import { createFileStore, sweepUnclaimedFiles, type FileStore } from '../../server/db/file-store';
import { createFileRepo, type FileRepo } from '../../server/db/repos/files';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { makeTempDir } from '../helpers/server';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const KIB = 1024;

/**
 * The office's file store on either engine (server/db/file-store.ts): DATA_DIR/files on SQLite,
 * chunks of 256 KiB in the database on PostgreSQL. The same uploads, reads, de-duplication and
 * sweeps on both; where the bytes lie is asserted per engine.
 */
for (const dialect of DIALECTS)
  describe(`the file store on ${dialect}`, () => {
    let opened: TestDatabase;
    let root: string;
    let filesDir: string;
    let store: FileStore;
    let files: FileRepo;

    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      root = makeTempDir();
      filesDir = path.join(root, 'files');
      store = createFileStore({ db: opened.db, root, filesDir });
      files = createFileRepo(opened.store, store);
    });
    afterAll(() => opened?.close());

    /** What the PDF worker does with an upload: the bytes written into a reserved file, then placed. */
    const upload = async (bytes: Buffer) => {
      const staged = store.reserve();
      fs.writeFileSync(staged.path, bytes);
      await staged.place(sha256(bytes));
      expect(fs.existsSync(staged.path), 'the staged file is left').toBe(false);
      return sha256(bytes);
    };
    /** The chunks (PostgreSQL) or the file (SQLite) holding the bytes of `hash`. */
    const chunksOf = async (hash: string) =>
      (
        await opened.store
          .sql<{ chunk: number; size: number }>(
            'SELECT chunk, length(data) AS size FROM file_chunks WHERE sha256 = ? ORDER BY chunk',
          )
          .all([hash])
      ).map((row) => [Number(row.chunk), Number(row.size)]);
    const onDisk = (hash: string) => fs.existsSync(path.join(filesDir, hash.slice(0, 2), hash));
    const markUnclaimedLongAgo = (hash: string) =>
      opened.store.sql('UPDATE unclaimed_files SET since = 0 WHERE sha256 = ?').run([hash]);
    const isUnclaimed = async (hash: string) =>
      (await opened.store.sql('SELECT 1 AS one FROM unclaimed_files WHERE sha256 = ?').get([hash])) !== undefined;

    it('places an upload under its hash, stores it once however often it comes, and reads it back whole', async () => {
      const bytes = randomBytes(600 * KIB);
      const hash = await upload(bytes);
      expect(await isUnclaimed(hash)).toBe(true);
      const id = await inTransaction(opened.db, () => files.putPlacedFile(hash, bytes.length, 'application/pdf', 7));
      expect(await isUnclaimed(hash)).toBe(false);
      expect((await files.readFile(id))?.data.equals(bytes)).toBe(true);
      expect((await files.getFile(id))?.data.equals(bytes)).toBe(true);
      expect(await upload(bytes)).toBe(hash);
      expect(await inTransaction(opened.db, () => files.putPlacedFile(hash, bytes.length, 'application/pdf'))).toBe(id);
      expect((await store.read(hash)).equals(bytes)).toBe(true);
      if (dialect === 'postgres') {
        expect(await chunksOf(hash)).toEqual([
          [0, 256 * KIB],
          [1, 256 * KIB],
          [2, 88 * KIB],
        ]);
        expect(onDisk(hash)).toBe(false);
      } else {
        expect(await chunksOf(hash)).toEqual([]);
        expect(onDisk(hash)).toBe(true);
      }
    });

    it('keeps bytes given whole in the database on PostgreSQL and in their row on SQLite, once', async () => {
      const bytes = randomBytes(300 * KIB);
      const hash = sha256(bytes);
      const id = await inTransaction(opened.db, () => files.putFile(bytes, 'application/pdf', 9));
      expect(await inTransaction(opened.db, () => files.putFile(Buffer.from(bytes), 'application/pdf'))).toBe(id);
      expect((await files.getFile(id))?.data.equals(bytes)).toBe(true);
      const rowData = await opened.store
        .sql<{ size: number }>('SELECT length(data) AS size FROM stored_files WHERE id = ?')
        .get([id]);
      if (dialect === 'postgres') {
        expect(await chunksOf(hash)).toEqual([
          [0, 256 * KIB],
          [1, 44 * KIB],
        ]);
        expect(Number(rowData?.size)).toBe(0);
      } else {
        expect(await chunksOf(hash)).toEqual([]);
        expect(Number(rowData?.size)).toBe(bytes.length);
      }
      // The same bytes as another type: a row of its own, the bytes still stored once.
      const asOther = await inTransaction(opened.db, () => files.putFile(bytes, 'application/octet-stream'));
      expect(asOther).not.toBe(id);
      expect((await files.readFile(asOther))?.data.equals(bytes)).toBe(true);
      if (dialect === 'postgres') expect(await chunksOf(hash)).toHaveLength(2);
      // A file written in a transaction that fails is not left behind.
      const lost = randomBytes(10 * KIB);
      await expect(
        inTransaction(opened.db, async () => {
          await files.putFile(lost, 'application/pdf');
          throw new Error('the owner could not be stored');
        }),
      ).rejects.toThrow(/owner/);
      expect(await chunksOf(sha256(lost))).toEqual([]);
    });

    it('reads an empty file, and says which file is missing when its bytes are gone', async () => {
      const empty = await inTransaction(opened.db, () => files.putFile(Buffer.alloc(0), 'text/plain'));
      expect((await files.getFile(empty))?.data).toEqual(Buffer.alloc(0));
      const bytes = randomBytes(520 * KIB);
      const hash = await upload(bytes);
      const id = await inTransaction(opened.db, () => files.putPlacedFile(hash, bytes.length, 'application/pdf'));
      if (dialect === 'postgres')
        await opened.store.sql('DELETE FROM file_chunks WHERE sha256 = ? AND chunk = 1').run([hash]);
      else fs.rmSync(path.join(filesDir, hash.slice(0, 2), hash));
      await expect(files.getFile(id)).rejects.toThrow(new RegExp(`stored file ${hash} is missing`));
      await expect(store.read(hash)).rejects.toThrow(/missing/);
      await expect(store.read('0'.repeat(64))).rejects.toThrow(/missing/);
    });

    it('sweeps the files no row claims, and keeps those a row claims', async () => {
      const kept = randomBytes(100 * KIB);
      const keptHash = await upload(kept);
      const keptId = await inTransaction(opened.db, () =>
        files.putPlacedFile(keptHash, kept.length, 'application/pdf'),
      );
      const orphan = randomBytes(270 * KIB);
      const orphanHash = await upload(orphan); // Its row never committed.
      const released = randomBytes(5 * KIB);
      const releasedId = await inTransaction(opened.db, () => files.putFile(released, 'application/pdf'));
      await inTransaction(opened.db, () => files.releaseFile(releasedId));
      const present = (hash: string) =>
        dialect === 'postgres' ? chunksOf(hash).then((chunks) => chunks.length > 0) : onDisk(hash);

      if (dialect === 'postgres') {
        // Another instance may be placing or claiming it right now: an hour's grace first.
        expect(await sweepUnclaimedFiles(opened.db, filesDir)).toBe(0);
        expect(await present(orphanHash)).toBe(true);
        await markUnclaimedLongAgo(orphanHash);
        await markUnclaimedLongAgo(sha256(released));
        // A stale mark of a claimed file (placed again): only forgotten.
        await opened.store.sql('INSERT INTO unclaimed_files (sha256, since) VALUES (?, 0)').run([keptHash]);
      }
      // SQLite keeps bytes given whole in their row: the released one went with it.
      expect(await sweepUnclaimedFiles(opened.db, filesDir)).toBe(dialect === 'postgres' ? 2 : 1);
      expect(await present(orphanHash)).toBe(false);
      expect(await present(sha256(released))).toBe(false);
      expect(await isUnclaimed(orphanHash)).toBe(false);
      expect(await isUnclaimed(keptHash)).toBe(false);
      expect((await files.readFile(keptId))?.data.equals(kept)).toBe(true);
      await expect(store.read(orphanHash, orphan.length)).rejects.toThrow(/missing/);
      // Uploaded again after its sweep, it is stored again.
      await upload(orphan);
      expect((await store.read(orphanHash)).equals(orphan)).toBe(true);
    });
  });
