import { createHash } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import type { KeyStore } from '../crypto/key-store';
import { tablesInOrder } from '../db/copy-tables';
import type { Database } from '../db/database';
import { storedFilePath } from '../db/disk-file-store';
import { databaseFileStore } from '../db/file-store';
import { describeDatabaseUrl, DatabaseUnreachable } from '../db/pg/open-postgres';
import { storeOf } from '../db/stores';

/**
 * The parts of `npm run cli -- migrate` that move an office's keys and files (the rows are
 * server/db/copy-tables.ts's), and the check that the target holds nothing yet.
 */

/** Something the move will not do (a target that is not empty): nothing was changed. */
export class MoveRefused extends Error {}

/**
 * Tables in the target's database that are not SignDesk's: a database that holds another
 * system's tables is not an empty one, and is refused before SignDesk's migrations touch it.
 */
export async function foreignTablesOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUnreachable(
      `Cannot reach the PostgreSQL database ${describeDatabaseUrl(url)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    // The office's tables, and PostgreSQL's own search table (server/db/repos/contract-search-pg.ts).
    const ours = new Set([...tablesInOrder().map((table) => table.name), 'contract_search']);
    const { rows } = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
    );
    return rows
      .filter((row) => !(row.schema === 'public' && ours.has(row.name)))
      .filter((row) => !(row.schema === 'drizzle' && row.name === '__drizzle_migrations'))
      .map((row) => (row.schema === 'public' ? row.name : `${row.schema}.${row.name}`));
  } finally {
    await client.end();
  }
}

/** The tables a person knows an office by, named first when a refused target is described. */
const TELLING = ['contracts', 'parties', 'users', 'contract_templates', 'webhook_consumers'];

/** What a refused target holds, for the message: `contracts (12), parties (30), …`. */
export function describeRows(counts: Record<string, number>): string {
  const rank = (table: string) => (TELLING.includes(table) ? TELLING.indexOf(table) : TELLING.length);
  const held = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b));
  const shown = held.slice(0, 8).map(([table, n]) => `${table} (${n})`);
  return held.length > 8 ? `${shown.join(', ')} and ${held.length - 8} more tables` : shown.join(', ');
}

/** Every key of the source store put into the target's; returns their names. */
export async function copyKeys(from: KeyStore, to: KeyStore): Promise<string[]> {
  const names = await from.list();
  for (const name of names) {
    const value = await from.read(name);
    if (value) await to.replace(name, value);
  }
  return names;
}

/**
 * Where the target keeps a stored file: given its hash and a way to read the bytes, it stores
 * them where the target's servers read them (PostgreSQL's file store: content-addressed chunks).
 */
export type FileSink = {
  /** Stores the bytes `open` streams under `sha256`, checking that they hash to it. */
  put(sha256: string, open: () => fs.ReadStream): Promise<void>;
};

/**
 * A sink into the target database's file store. A file is read once into memory (hashed as it
 * comes) and written chunk by chunk; rows copied before already claim it.
 */
export function databaseFileSinkOf(target: Database): FileSink {
  const store = databaseFileStore(storeOf(target));
  if (!store?.keep) throw new Error('the target database keeps no files of its own');
  const keep = store.keep;
  return {
    async put(sha256, open) {
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      for await (const chunk of open()) {
        hash.update(chunk as Buffer);
        chunks.push(chunk as Buffer);
      }
      const got = hash.digest('hex');
      if (got !== sha256) throw new Error(`the stored file ${sha256} in DATA_DIR/files holds other bytes (${got})`);
      await keep(sha256, Buffer.concat(chunks));
    },
  };
}

/**
 * The files of the source's DATA_DIR/files that its rows name (stored_files with in_files),
 * each read from DATA_DIR and given to `sink`. Bytes kept in the rows themselves (signed PDFs,
 * an older office's uploads) went with the rows.
 */
export async function copyFiles(
  source: Database,
  filesDir: string,
  sink: FileSink,
  onProgress: (copied: number, total: number) => void,
): Promise<number> {
  const x = storeOf(source);
  const hashes = (
    await x
      .sql<{ sha256: string }>('SELECT DISTINCT sha256 FROM stored_files WHERE in_files = TRUE ORDER BY sha256')
      .all()
  ).map((row) => row.sha256);
  let copied = 0;
  onProgress(copied, hashes.length);
  for (const sha256 of hashes) {
    const file = storedFilePath(filesDir, sha256);
    if (!fs.existsSync(file)) throw new Error(`the stored file ${sha256} is missing from ${filesDir}`);
    await sink.put(sha256, () => fs.createReadStream(file));
    copied += 1;
    onProgress(copied, hashes.length);
  }
  return copied;
}
