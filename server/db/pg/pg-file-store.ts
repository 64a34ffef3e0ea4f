import fs from 'node:fs';
import { inTransaction, type Database } from '../database';
import type { FileStore } from '../file-store';
import { createIncomingFiles } from '../incoming-files';
import type { Store } from '../store';
import { StoredFileMissing } from '../stored-file-missing';
import { storeOf } from '../stores';

/** The bytes of one row of file_chunks: small enough that a file is never sent or read whole in one statement. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks fetched by one read statement (4 MiB): the driver holds them (and their text form) at once. */
const CHUNKS_PER_READ = 16;
/** How long a file stays unclaimed before the sweep may take it: far longer than an upload takes to be placed and claimed. */
export const UNCLAIMED_GRACE_MS = 60 * 60 * 1000;
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const SHA256 = /^[0-9a-f]{64}$/;

const chunkCount = (size: number) => Math.ceil(size / CHUNK_BYTES);

function checkedSha(sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256.slice(0, 80)}`);
  return sha256;
}

const missing = (sha256: string) => new StoredFileMissing(sha256, 'the database (file_chunks)');

/**
 * PostgreSQL's file store: each file's bytes are rows of `file_chunks` under their SHA-256 (chunk
 * 0, 1, … of 256 KiB), so every instance on the database reads every file, and a file is kept
 * once however many rows name it and however often it is stored (a chunk already there is not
 * written again). Bytes go in and come out a chunk at a time: an upload is read from its
 * staged file chunk by chunk, bytes at hand are sent as slices of themselves, and a read fills one
 * buffer of the file's size from a few chunks per statement, so no file is held whole in memory
 * more than once.
 *
 * An upload is staged on this instance's disk (DATA_DIR `root`'s incoming folder: the PDF worker
 * writes it there), then `place` marks its hash unclaimed (refreshing the mark's time), writes
 * its chunks and removes the staged file; the transaction that stores the row claims it
 * (`files.putPlacedFile`). `keep` writes bytes given whole in the caller's transaction, which
 * stores the row naming them. Without `root` (a store for the database alone) nothing is staged.
 */
export function createPgFileStore(x: Store, root?: string): FileStore {
  const incomingFile = root === undefined ? undefined : createIncomingFiles(root);
  const markUnclaimed = x.sql(
    'INSERT INTO unclaimed_files (sha256, since) VALUES (?, ?) ON CONFLICT (sha256) DO UPDATE SET since = excluded.since',
  );
  const stored = x.sql<{ chunks: number; size: number }>(
    'SELECT count(*) AS chunks, coalesce(sum(octet_length(data)), 0) AS size FROM file_chunks WHERE sha256 = ?',
  );
  const insertChunk = x.sql('INSERT INTO file_chunks (sha256, chunk, data) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const chunksFrom = x.sql<{ chunk: number; data: Buffer }>(
    'SELECT chunk, data FROM file_chunks WHERE sha256 = ? AND chunk >= ? AND chunk < ? ORDER BY chunk',
  );

  /** Whether the file is stored whole already (the same bytes stored before): then nothing is sent again. */
  const isStored = async (sha256: string, size: number) => {
    const found = await stored.get([sha256]);
    return found !== undefined && found.chunks === chunkCount(size) && found.size === size;
  };
  /** Writes the chunks `chunkAt(i)` gives (each read only when its turn comes); those already there stay. */
  const writeChunks = async (sha256: string, size: number, chunkAt: (index: number) => Promise<Buffer> | Buffer) => {
    if (await isStored(sha256, size)) return;
    for (let index = 0; index < chunkCount(size); index += 1)
      await insertChunk.run([sha256, index, await chunkAt(index)]);
  };
  const placeFrom = async (sha256: string, staged: string) => {
    await markUnclaimed.run([sha256, Date.now()]);
    const handle = await fs.promises.open(staged, 'r');
    try {
      const { size } = await handle.stat();
      await writeChunks(sha256, size, async (index) => {
        const bytes = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size - index * CHUNK_BYTES));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, index * CHUNK_BYTES);
        if (bytesRead !== bytes.length) throw new Error(`the staged upload ${staged} changed while it was stored`);
        return bytes;
      });
    } finally {
      await handle.close();
    }
    await fs.promises.rm(staged, { force: true });
  };

  return {
    reserve() {
      if (!incomingFile) throw new Error('uploads cannot be staged here (no DATA_DIR)');
      const staged = incomingFile();
      return {
        path: staged,
        place: (sha256) => placeFrom(checkedSha(sha256), staged),
        discard: () => fs.promises.rm(staged, { force: true }),
      };
    },
    async read(sha256, size) {
      checkedSha(sha256);
      const total = size ?? (await stored.get([sha256]))?.size ?? 0;
      if (total === 0) {
        // No chunks: the empty file, or bytes that are gone.
        if (sha256 === EMPTY_SHA256) return Buffer.alloc(0);
        if (size === undefined) throw missing(sha256);
      }
      const bytes = Buffer.allocUnsafe(total);
      const chunks = chunkCount(total);
      for (let from = 0; from < chunks; from += CHUNKS_PER_READ) {
        const rows = await chunksFrom.all([sha256, from, from + CHUNKS_PER_READ]);
        const expected = Math.min(CHUNKS_PER_READ, chunks - from);
        if (rows.length !== expected) throw missing(sha256);
        for (const [offset, row] of rows.entries()) {
          const index = from + offset;
          const start = index * CHUNK_BYTES;
          if (row.chunk !== index || row.data.length !== Math.min(CHUNK_BYTES, total - start)) throw missing(sha256);
          row.data.copy(bytes, start);
        }
      }
      return bytes;
    },
    keep: (sha256, bytes) =>
      writeChunks(checkedSha(sha256), bytes.length, (index) =>
        bytes.subarray(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES),
      ),
  };
}

/**
 * Removes the chunks of files no row claims and that have been unclaimed for an hour (an upload
 * cut off before its commit, a deleted contract's PDF). Safe beside running instances, so any
 * instance runs it (at its start): each file is taken in a write transaction of its own (writers
 * take turns: the row that would claim it cannot commit meanwhile), and only when its unclaimed
 * mark is older than the grace, which an upload placing the same bytes again refreshes first.
 * Returns how many files it removed.
 */
export async function sweepUnclaimedPgFiles(db: Database, now: number = Date.now()): Promise<number> {
  const x = storeOf(db);
  const cutoff = now - UNCLAIMED_GRACE_MS;
  const due = await x.sql<{ sha256: string }>('SELECT sha256 FROM unclaimed_files WHERE since < ?').all([cutoff]);
  const forget = x.sql<{ sha256: string }>(
    'DELETE FROM unclaimed_files WHERE sha256 = ? AND since < ? RETURNING sha256',
  );
  const isClaimed = x.sql('SELECT 1 AS one FROM stored_files WHERE sha256 = ? AND in_files = TRUE LIMIT 1');
  const removeChunks = x.sql('DELETE FROM file_chunks WHERE sha256 = ?');
  let removed = 0;
  for (const { sha256 } of due) {
    await inTransaction(db, async () => {
      if (!(await forget.get([sha256, cutoff]))) return; // Claimed or placed again meanwhile.
      if (await isClaimed.get([sha256])) return;
      if ((await removeChunks.run([sha256])).changes > 0) removed += 1;
    });
  }
  return removed;
}
