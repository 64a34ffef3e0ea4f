import { createHash } from 'node:crypto';
import type { Db } from '../open-database';

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
 * records what refers to the file, so that a file and its owner commit together.
 */
export function createFileRepo(db: Db) {
  const sqlite = db.$client;
  const bySha = sqlite.prepare<[string, string], { id: number }>(
    'SELECT id FROM stored_files WHERE sha256 = ? AND content_type = ?',
  );
  const insert = sqlite.prepare<[string, string, number, Buffer, number], { id: number }>(
    'INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
  );
  const byId = sqlite.prepare<[number], StoredFile>(
    'SELECT id, sha256, content_type AS contentType, size, data, created_at AS createdAt FROM stored_files WHERE id = ?',
  );
  const shaById = sqlite.prepare<[number], { sha256: string }>('SELECT sha256 FROM stored_files WHERE id = ?');
  const remove = sqlite.prepare<[number]>('DELETE FROM stored_files WHERE id = ?');

  return {
    /** Stores the bytes (or finds the same bytes already stored) and returns the file id. */
    /** `knownSha256`: the bytes' hash, when the caller had it computed off the request thread. */
    putFile(bytes: Uint8Array, contentType: string, now: number = Date.now(), knownSha256?: string): number {
      const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sha256 = knownSha256 ?? createHash('sha256').update(buffer).digest('hex');
      const existing = bySha.get(sha256, contentType);
      if (existing) return existing.id;
      const row = insert.get(sha256, contentType, buffer.length, buffer, now);
      if (!row) throw new Error('stored_files insert returned no row');
      return row.id;
    },
    getFile: (id: number): StoredFile | undefined => byId.get(id),
    /** The hash alone, without reading the bytes. */
    getSha256: (id: number): string | undefined => shaById.get(id)?.sha256,
    /**
     * Deletes the file unless something still refers to it. The foreign keys decide, so a
     * table that starts referring to stored files later is respected without changes here.
     */
    releaseFile(id: number): void {
      try {
        remove.run(id);
      } catch (error) {
        if (!isForeignKeyError(error)) throw error;
      }
    },
  };
}

export type FileRepo = ReturnType<typeof createFileRepo>;
