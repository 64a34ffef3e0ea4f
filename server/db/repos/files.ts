import { createHash } from 'node:crypto';
import type { Db } from '../open-database';
import type { FileStore } from '../file-store';

export type StoredFile = {
  id: number;
  sha256: string;
  contentType: string;
  size: number;
  data: Buffer;
  createdAt: number;
};

function isForeignKeyError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/**
 * Stored bytes, kept once per (sha256, content type). Call inside the transaction that
 * records what refers to the file, so that a file and its owner commit together. Bytes in
 * DATA_DIR/files (an upload's, see ../file-store.ts) are read through `store`.
 */
export function createFileRepo(db: Db, store?: FileStore) {
  const sqlite = db.$client;
  const bySha = sqlite.prepare<[string, string], { id: number }>(
    'SELECT id FROM stored_files WHERE sha256 = ? AND content_type = ?',
  );
  const insert = sqlite.prepare<[string, string, number, Buffer, number], { id: number }>(
    'INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const insertPlaced = sqlite.prepare<[string, string, number, number], { id: number }>(
    "INSERT INTO stored_files (sha256, content_type, size, data, in_files, created_at) VALUES (?, ?, ?, x'', 1, ?) RETURNING id",
  );
  const claim = sqlite.prepare<[string]>('DELETE FROM unclaimed_files WHERE sha256 = ?');
  const unclaim = sqlite.prepare<[string, number]>(
    'INSERT INTO unclaimed_files (sha256, since) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const byId = sqlite.prepare<[number], StoredFile & { inFiles: number }>(
    'SELECT id, sha256, content_type AS contentType, size, data, in_files AS inFiles, created_at AS createdAt FROM stored_files WHERE id = ?',
  );
  const shaById = sqlite.prepare<[number], { sha256: string; inFiles: number }>(
    'SELECT sha256, in_files AS inFiles FROM stored_files WHERE id = ?',
  );
  const remove = sqlite.prepare<[number]>('DELETE FROM stored_files WHERE id = ?');
  const storeOf = (): FileStore => {
    if (!store) throw new Error('stored files on disk cannot be read here (no file store)');
    return store;
  };

  return {
    /** Stores the bytes in the row (or finds the same bytes already stored) and returns the file id. */
    async putFile(bytes: Uint8Array, contentType: string, now: number = Date.now()): Promise<number> {
      const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sha256 = createHash('sha256').update(buffer).digest('hex');
      const existing = bySha.get(sha256, contentType);
      if (existing) return existing.id;
      const row = insert.get(sha256, contentType, buffer.length, buffer, now);
      if (!row) throw new Error('stored_files insert returned no row');
      return row.id;
    },
    /**
     * The row of bytes a FileStore placed under `sha256` (or the row already storing the same
     * bytes), claiming the file in the same transaction.
     */
    async putPlacedFile(sha256: string, size: number, contentType: string, now: number = Date.now()): Promise<number> {
      const existing = bySha.get(sha256, contentType);
      // Already stored (perhaps in the database): the placed copy stays unclaimed, for the sweep.
      if (existing) return existing.id;
      const row = insertPlaced.get(sha256, contentType, size, now);
      if (!row) throw new Error('stored_files insert returned no row');
      claim.run(sha256);
      return row.id;
    },
    /**
     * A stored file, its bytes read at once: for bytes kept in the row (signed PDFs, attachments)
     * and for callers inside a transaction. An upload's bytes are a file of DATA_DIR/files:
     * request paths read those with `readFile`, which does not hold up the request thread.
     */
    async getFile(id: number): Promise<StoredFile | undefined> {
      const row = byId.get(id);
      if (!row) return undefined;
      const { inFiles, ...file } = row;
      return inFiles ? { ...file, data: storeOf().readNow(file.sha256) } : file;
    },
    /** A stored file, an upload's bytes read from DATA_DIR/files off the request thread. */
    async readFile(id: number): Promise<StoredFile | undefined> {
      const row = byId.get(id);
      if (!row) return undefined;
      const { inFiles, ...file } = row;
      return inFiles ? { ...file, data: await storeOf().read(file.sha256) } : file;
    },
    /** The hash alone, without reading the bytes. */
    getSha256: async (id: number): Promise<string | undefined> => shaById.get(id)?.sha256,
    /**
     * Deletes the file unless something still refers to it. The foreign keys decide, so a
     * table that starts referring to stored files later is respected without changes here.
     */
    async releaseFile(id: number, now: number = Date.now()): Promise<void> {
      const file = shaById.get(id);
      try {
        remove.run(id);
      } catch (error) {
        if (!isForeignKeyError(error)) throw error;
        return;
      }
      // Its file is removed at the next start, unless another row (another content type) still claims it.
      if (file?.inFiles) unclaim.run(file.sha256, now);
    },
  };
}

export type FileRepo = ReturnType<typeof createFileRepo>;
