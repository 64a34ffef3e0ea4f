import { asc, getTableColumns, getTableName, gt, type Column } from 'drizzle-orm';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { inTransaction, type Database } from './database';
import { createContractRepo } from './repos/contracts';
import * as schema from './schema';
import { storeOf } from './stores';

/** One table's place in a copy: its name, its rows, and how far the copy has come. */
export type CopyProgress = { table: string; copied: number; total: number };

type TableInfo = { key: keyof typeof schema; name: string; dependsOn: string[]; order: string[]; columns: number };

/** The office's tables in an order where every table comes after those its foreign keys name. */
export function tablesInOrder(): TableInfo[] {
  const infos = new Map<string, TableInfo>();
  for (const [key, candidate] of Object.entries(schema)) {
    let config: ReturnType<typeof getTableConfig>;
    try {
      config = getTableConfig(candidate as SQLiteTable);
    } catch {
      continue;
    }
    const primary = config.columns.filter((column) => column.primary).map((column) => column.name);
    const composite = config.primaryKeys[0]?.columns.map((column) => column.name) ?? [];
    infos.set(config.name, {
      key: key as keyof typeof schema,
      name: config.name,
      dependsOn: config.foreignKeys
        .map((fk) => getTableName(fk.reference().foreignTable))
        .filter((name) => name !== config.name),
      order: primary.length > 0 ? primary : composite,
      columns: config.columns.length,
    });
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (ordered.length < infos.size) {
    const ready = [...infos.values()].filter(
      (info) => !placed.has(info.name) && info.dependsOn.every((name) => placed.has(name)),
    );
    if (ready.length === 0) throw new Error('the tables’ foreign keys go round in a circle');
    for (const info of ready.sort((a, b) => a.name.localeCompare(b.name))) {
      ordered.push(info);
      placed.add(info.name);
    }
  }
  return ordered;
}

/** Rows in every office table: what a copy must match, and what "empty" means. */
export async function countRows(db: Database): Promise<Record<string, number>> {
  const x = storeOf(db);
  const counts: Record<string, number> = {};
  for (const info of tablesInOrder())
    counts[info.name] = (await x.sql<{ n: number }>(`SELECT count(*) AS n FROM ${info.name}`).get())?.n ?? 0;
  return counts;
}

/** PostgreSQL's bind parameters per statement are at most 65,535: a batch of rows stays well under. */
const PARAMETERS_PER_BATCH = 30_000;
/**
 * Bytes of blobs a batch holds at most (about): a table of blobs (an older office's uploads kept
 * in `stored_files.data`, signature images) is read a few rows at first, then in batches sized by
 * the bytes its rows have held so far, so that no batch holds more than this in memory.
 */
const BLOB_BYTES_PER_BATCH = 16 * 1024 * 1024;
const FIRST_BLOB_BATCH = 8;

/** The bytes of a row's Buffers (its blobs). */
const blobBytes = (row: Record<string, unknown>) =>
  Object.values(row).reduce<number>((sum, value) => sum + (Buffer.isBuffer(value) ? value.length : 0), 0);

/**
 * Copies every row of every office table from one database to another, table by table in
 * foreign-key order, in batches (each its own transaction on the target), keeping ids as they
 * are; PostgreSQL's id sequences then continue after the highest id. Generated columns are the
 * target's own. The target must be migrated and empty (the caller checks).
 */
export async function copyTables(
  from: Database,
  to: Database,
  onProgress: (progress: CopyProgress) => void = () => undefined,
  /** Tables left out (a backup's database leaves the file chunks to its files/ entries). */
  skip: readonly string[] = [],
): Promise<void> {
  const source = storeOf(from);
  const target = storeOf(to);
  const totals = await countRows(from);
  for (const info of tablesInOrder()) {
    if (skip.includes(info.name)) continue;
    const sourceTable = source.t[info.key] as SQLiteTable;
    const targetTable = target.t[info.key] as SQLiteTable;
    const columns = Object.entries(getTableColumns(sourceTable) as Record<string, Column>);
    const orderColumns = info.order.map((name) => columns.find(([, column]) => column.name === name)![1]);
    const firstKey = columns.find(([, column]) => column === orderColumns[0])![0];
    const maxBatch = Math.max(1, Math.floor(PARAMETERS_PER_BATCH / info.columns));
    const hasBlobs = columns.some(([, column]) => column.dataType === 'buffer');
    let bytesSeen = 0;
    let batch = hasBlobs ? Math.min(FIRST_BLOB_BATCH, maxBatch) : maxBatch;
    const total = totals[info.name] ?? 0;
    let copied = 0;
    let after: unknown = undefined;
    onProgress({ table: info.name, copied, total });
    for (;;) {
      // A single-column key pages by its value; a composite one (few rows: anchors' heads, metadata) by offset.
      const first = orderColumns[0]!;
      const query = source.orm
        .select()
        .from(sourceTable)
        .where(orderColumns.length === 1 && after !== undefined ? gt(first, after) : undefined)
        .orderBy(...orderColumns.map((column) => asc(column)))
        .limit(batch)
        .offset(orderColumns.length === 1 ? 0 : copied);
      const rows = await source.all<Record<string, unknown>>(query);
      if (rows.length === 0) break;
      await inTransaction(to, async () => {
        await target.run(target.orm.insert(targetTable).values(rows as never));
      });
      copied += rows.length;
      after = rows.at(-1)![firstKey];
      onProgress({ table: info.name, copied, total });
      if (rows.length < batch) break;
      if (hasBlobs) {
        bytesSeen += rows.reduce((sum, row) => sum + blobBytes(row), 0);
        const perRow = Math.max(1, bytesSeen / copied);
        batch = Math.max(1, Math.min(maxBatch, Math.floor(BLOB_BYTES_PER_BATCH / perRow)));
      }
    }
  }
  if (to.dialect === 'postgres') {
    // PostgreSQL's search text is no office table: made from the copied rows (contract-search-pg.ts).
    await inTransaction(to, () => createContractRepo(target).rebuildSearch());
    for (const info of tablesInOrder()) {
      if (info.order.length !== 1 || info.order[0] !== 'id') continue;
      await target
        .sql(
          `SELECT setval(pg_get_serial_sequence('${info.name}', 'id'), (SELECT max(id) FROM ${info.name})) ` +
            `WHERE EXISTS (SELECT 1 FROM ${info.name}) AND pg_get_serial_sequence('${info.name}', 'id') IS NOT NULL`,
        )
        .get();
    }
  }
}
