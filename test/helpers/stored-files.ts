import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { listFiles } from '../../server/backup/write-backup';
import { storeOf } from '../../server/db/stores';
import { testBackend } from './databases';
import type { TestServer } from './server';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A stored file in DATA_DIR/files (SQLite). */
export const fileOf = (dataDir: string, hash: string) => path.join(dataDir, 'files', hash.slice(0, 2), hash);

/**
 * Where a stored file's bytes are on either backend: a file of DATA_DIR/files (SQLite), chunks of
 * the database (PostgreSQL). What the tests plant, damage and look for goes through these.
 */
export const stored = {
  /** The hashes whose bytes are stored. */
  async hashes(t: TestServer): Promise<string[]> {
    if (testBackend() === 'sqlite') return listFiles(path.join(t.dataDir, 'files')).map((name) => path.basename(name));
    const rows = await storeOf(t.server.ctx.db)
      .sql<{ sha256: string }>('SELECT DISTINCT sha256 FROM file_chunks ORDER BY sha256')
      .all();
    return rows.map((row) => row.sha256);
  },
  /** Bytes stored under their hash that no row names (a crash before the row committed). */
  async plant(t: TestServer, bytes: Buffer): Promise<void> {
    if (testBackend() === 'sqlite') {
      fs.mkdirSync(path.dirname(fileOf(t.dataDir, sha256(bytes))), { recursive: true });
      fs.writeFileSync(fileOf(t.dataDir, sha256(bytes)), bytes);
    } else
      await storeOf(t.server.ctx.db)
        .sql('INSERT INTO file_chunks (sha256, chunk, data) VALUES (?, 0, ?)')
        .run([sha256(bytes), bytes]);
  },
  /** Someone took the bytes away (a file from DATA_DIR, rows from the database). */
  async remove(t: TestServer, hash: string): Promise<void> {
    if (testBackend() === 'sqlite') fs.rmSync(fileOf(t.dataDir, hash));
    else await storeOf(t.server.ctx.db).sql('DELETE FROM file_chunks WHERE sha256 = ?').run([hash]);
  },
};
