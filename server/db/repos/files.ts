import { createHash } from 'node:crypto';
import { getTableName } from 'drizzle-orm';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { FileStore } from '../file-store';
import * as schema from '../schema';
import type { Store } from '../store';

export type StoredFile = {
  id: number;
  sha256: string;
  contentType: string;
  size: number;
  data: Buffer;
  createdAt: number;
};

/** A delete refused by a foreign key: SQLite's code, or PostgreSQL's foreign_key_violation. */
function isForeignKeyError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  return error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || error.code === '23503';
}

/**
 * `NOT EXISTS` for every foreign key that refuses the delete of a stored file (none cascades),
 * read from the schema: on PostgreSQL a refused statement would abort the caller's transaction,
 * so the delete asks first and is never refused. A table that starts referring to stored files
 * later is included without changes here.
 */
function unreferencedCondition(): string {
  const checks: string[] = [];
  for (const candidate of Object.values(schema)) {
    let config: ReturnType<typeof getTableConfig>;
    try {
      config = getTableConfig(candidate as SQLiteTable);
    } catch {
      continue;
    }
    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      if (getTableName(reference.foreignTable) !== 'stored_files') continue;
      if (foreignKey.onDelete !== undefined && !['no action', 'restrict'].includes(foreignKey.onDelete)) continue;
      const [column] = reference.columns;
      if (column) checks.push(`NOT EXISTS (SELECT 1 FROM ${config.name} WHERE ${column.name} = @id)`);
    }
  }
  return checks.join(' AND ');
}

/**
 * Stored bytes, kept once per (sha256, content type). Call inside the transaction that
 * records what refers to the file, so that a file and its owner commit together. Bytes in
 * DATA_DIR/files (an upload's, see ../file-store.ts) are read through `store`.
 */
export function createFileRepo(x: Store, store?: FileStore) {
  const bySha = x.sql<{ id: number }>('SELECT id FROM stored_files WHERE sha256 = ? AND content_type = ?');
  const insert = x.sql<{ id: number }>(
    'INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const insertPlaced = x.sql<{ id: number }>(
    'INSERT INTO stored_files (sha256, content_type, size, data, in_files, created_at) VALUES (?, ?, ?, ?, TRUE, ?) RETURNING id',
  );
  const claim = x.sql('DELETE FROM unclaimed_files WHERE sha256 = ?');
  const unclaim = x.sql('INSERT INTO unclaimed_files (sha256, since) VALUES (?, ?) ON CONFLICT DO NOTHING');
  // in_files is 1/0 on SQLite, true/false on PostgreSQL: only its truth is read.
  const byId = x.sql<StoredFile & { inFiles: number | boolean }>(
    'SELECT id, sha256, content_type AS "contentType", size, data, in_files AS "inFiles", created_at AS "createdAt" FROM stored_files WHERE id = ?',
  );
  const shaById = x.sql<{ sha256: string; inFiles: number | boolean }>(
    'SELECT sha256, in_files AS "inFiles" FROM stored_files WHERE id = ?',
  );
  const remove = x.sql(`DELETE FROM stored_files WHERE id = @id AND ${unreferencedCondition()}`);
  const storeOf = (): FileStore => {
    if (!store) throw new Error('stored files on disk cannot be read here (no file store)');
    return store;
  };

  return {
    /** Stores the bytes in the row (or finds the same bytes already stored) and returns the file id. */
    async putFile(bytes: Uint8Array, contentType: string, now: number = Date.now()): Promise<number> {
      const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sha256 = createHash('sha256').update(buffer).digest('hex');
      const existing = await bySha.get([sha256, contentType]);
      if (existing) return existing.id;
      const row = await insert.get([sha256, contentType, buffer.length, buffer, now]);
      if (!row) throw new Error('stored_files insert returned no row');
      return row.id;
    },
    /**
     * The row of bytes a FileStore placed under `sha256` (or the row already storing the same
     * bytes), claiming the file in the same transaction.
     */
    async putPlacedFile(sha256: string, size: number, contentType: string, now: number = Date.now()): Promise<number> {
      const existing = await bySha.get([sha256, contentType]);
      // Already stored (perhaps in the database): the placed copy stays unclaimed, for the sweep.
      if (existing) return existing.id;
      const row = await insertPlaced.get([sha256, contentType, size, Buffer.alloc(0), now]);
      if (!row) throw new Error('stored_files insert returned no row');
      await claim.run([sha256]);
      return row.id;
    },
    /**
     * A stored file, its bytes read at once: for bytes kept in the row (signed PDFs, attachments)
     * and for callers inside a transaction. An upload's bytes are a file of DATA_DIR/files:
     * request paths read those with `readFile`, which does not hold up the request thread.
     */
    async getFile(id: number): Promise<StoredFile | undefined> {
      const row = await byId.get([id]);
      if (!row) return undefined;
      const { inFiles, ...file } = row;
      return inFiles ? { ...file, data: storeOf().readNow(file.sha256) } : file;
    },
    /** A stored file, an upload's bytes read from DATA_DIR/files off the request thread. */
    async readFile(id: number): Promise<StoredFile | undefined> {
      const row = await byId.get([id]);
      if (!row) return undefined;
      const { inFiles, ...file } = row;
      return inFiles ? { ...file, data: await storeOf().read(file.sha256) } : file;
    },
    /** The hash alone, without reading the bytes. */
    getSha256: async (id: number): Promise<string | undefined> => (await shaById.get([id]))?.sha256,
    /**
     * Deletes the file unless something still refers to it. The foreign keys decide, so a
     * table that starts referring to stored files later is respected without changes here.
     */
    async releaseFile(id: number, now: number = Date.now()): Promise<void> {
      const file = await shaById.get([id]);
      try {
        if ((await remove.run({ id })).changes === 0) return;
      } catch (error) {
        // A reference the schema does not declare (SQLite refuses the statement alone).
        if (!isForeignKeyError(error)) throw error;
        return;
      }
      // Its file is removed at the next start, unless another row (another content type) still claims it.
      if (file?.inFiles) await unclaim.run([file.sha256, now]);
    },
  };
}

export type FileRepo = ReturnType<typeof createFileRepo>;
