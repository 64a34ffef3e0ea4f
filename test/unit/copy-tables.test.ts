import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTables, countRows, tablesInOrder, type CopyProgress } from '../../server/db/copy-tables';
import { openTestDatabase, type TestDatabase } from '../helpers/databases';

const MiB = 1024 * 1024;

/**
 * The table copier `npm run cli -- migrate` moves an office with (SQLite to PostgreSQL): every
 * row, ids kept, blobs whole, batches of blobs bounded in bytes, the sequences continuing after
 * the highest id.
 */
describe('copying the tables from SQLite to PostgreSQL', () => {
  let source: TestDatabase;
  let target: TestDatabase;
  const uploads = Array.from({ length: 10 }, () => randomBytes(3 * MiB));
  const progress: CopyProgress[] = [];
  beforeAll(async () => {
    [source, target] = [await openTestDatabase('sqlite'), await openTestDatabase('postgres')];
    // An older office kept its uploads in the rows (3 MiB each); ids with gaps, as deletions leave.
    const insert = source.store.sql(
      'INSERT INTO stored_files (id, sha256, content_type, size, data, in_files, created_at) VALUES (?, ?, ?, ?, ?, FALSE, ?)',
    );
    for (const [index, bytes] of uploads.entries())
      await insert.run([
        index * 3 + 1,
        createHash('sha256').update(bytes).digest('hex'),
        'application/pdf',
        bytes.length,
        bytes,
        1_700_000_000_000 + index,
      ]);
    await copyTables(source.db, target.db, (step) => progress.push(step));
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it('copies every row of every table, ids and bytes as they were', async () => {
    expect(await countRows(target.db)).toEqual(await countRows(source.db));
    const rows = await target.store
      .sql<{ id: number; data: Buffer }>('SELECT id, data FROM stored_files ORDER BY id')
      .all();
    expect(rows.map((row) => row.id)).toEqual(uploads.map((_, index) => index * 3 + 1));
    for (const [index, row] of rows.entries()) expect(row.data.equals(uploads[index]!)).toBe(true);
    // Every table is reported, in an order where foreign keys are met.
    expect(new Set(progress.map((step) => step.table))).toEqual(new Set(tablesInOrder().map((t) => t.name)));
  });

  it('holds at most about 16 MiB of blobs in one batch', () => {
    const steps = progress.filter((step) => step.table === 'stored_files');
    const batches = steps.slice(1).map((step, index) => step.copied - steps[index]!.copied);
    expect(batches.reduce((sum, n) => sum + n, 0)).toBe(10);
    expect(batches.length).toBeGreaterThan(1);
    for (const rows of batches) expect(rows * 3 * MiB).toBeLessThanOrEqual(24 * MiB);
  });

  it('lets PostgreSQL go on numbering after the highest id copied', async () => {
    const made = await target.store
      .sql<{ id: number }>(
        "INSERT INTO stored_files (sha256, content_type, size, data, in_files, created_at) VALUES ('ab', 'text/plain', 0, ?, FALSE, 0) RETURNING id",
      )
      .get([Buffer.alloc(0)]);
    expect(made!.id).toBe(29);
  });
});
