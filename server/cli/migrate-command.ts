import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { openOfflineContext } from '../app/context-offline';
import { createContext } from '../app/create-context';
import { loadConfig, type Config } from '../config/config';
import type { AppContext } from '../context/app-context';
import { readMasterKey } from '../crypto/master-key';
import { copyTables, countRows } from '../db/copy-tables';
import { prepareDataDir } from '../db/data-dir';
import { describeDatabaseUrl, openPostgres } from '../db/pg/open-postgres';
import type { PgDatabase } from '../db/pg/pg-database';
import { openDatabaseKeyStore } from '../secrets/database-key-store';
import { copyFiles, copyKeys, describeRows, databaseFileSinkOf, foreignTablesOf, MoveRefused } from './move-office';
import { UsageError, type CliIo } from './run-cli';
import { checkChains, checkNewestSeal, compareCounts, compareKeys } from './verify-move';

/** A line of progress at most this often while one step goes on (and always when it ends). */
const PROGRESS_EVERY_MS = 2_000;

function progressLine(io: CliIo, what: string): (done: number, total: number) => void {
  let shown = 0;
  return (done, total) => {
    const now = Date.now();
    if (done !== total && now - shown < PROGRESS_EVERY_MS) return;
    if (done === total && total === 0) return;
    shown = now;
    io.out(`  ${what}: ${done} of ${total}`);
  };
}

/** The master key from the environment, as the server on PostgreSQL will be given it. */
function masterKeyOf(env: Record<string, string | undefined>) {
  if (env.SIGNDESK_MASTER_KEY && env.SIGNDESK_MASTER_KEY_FILE)
    throw new UsageError('Give the master key one way: SIGNDESK_MASTER_KEY or SIGNDESK_MASTER_KEY_FILE, not both.');
  return readMasterKey({
    ...(env.SIGNDESK_MASTER_KEY ? { value: env.SIGNDESK_MASTER_KEY } : {}),
    ...(env.SIGNDESK_MASTER_KEY_FILE ? { file: path.resolve(env.SIGNDESK_MASTER_KEY_FILE) } : {}),
  });
}

/**
 * `migrate --to URL [--files-to DIR]`: copies the office of DATA_DIR (SQLite) into the empty
 * PostgreSQL database of URL, then checks the copy (docs/decisions.md, "Moving an office"). The
 * SQLite office is only read, under DATA_DIR's lock (no server may run on it meanwhile), and
 * stays as it was. The target is refused unless it is empty; a failed check leaves the copy
 * there for inspection and says to empty the database before trying again.
 */
export async function migrateCommand(args: string[], env: Record<string, string | undefined>, io: CliIo) {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } } });
  if (!values.to || !/^postgres(ql)?:\/\//.test(values.to))
    throw new UsageError('migrate needs --to postgres://USER@HOST/DATABASE (an empty PostgreSQL database)');
  const url = values.to;
  const masterKey = masterKeyOf(env);
  const sourceConfig: Config = { ...loadConfig({ ...env, DATABASE_URL: undefined }), database: { kind: 'sqlite' } };
  const filesTo = path.resolve(sourceConfig.dataDir);
  io.out(`DATA_DIR: ${sourceConfig.dataDir}`);
  io.out(`Moving the office into ${describeDatabaseUrl(url)}`);

  const foreign = await foreignTablesOf(url);
  if (foreign.length > 0)
    throw new MoveRefused(
      `The database ${describeDatabaseUrl(url)} is not empty: it holds tables that are not SignDesk's (${foreign.slice(0, 8).join(', ')}). Give an empty database (CREATE DATABASE …). Nothing was changed.`,
    );
  const closing: Array<() => Promise<void>> = [];
  try {
    const source = await openOfflineContext(sourceConfig, { role: 'cli migrate' });
    closing.push(() => closeContext(source.ctx, source.close));
    const targetDb: PgDatabase = await openPostgres(url);
    let targetDbOpen = true;
    closing.push(async () => {
      if (targetDbOpen) await targetDb.close();
    });
    const held = await countRows(targetDb);
    if (Object.values(held).some((n) => n > 0))
      throw new MoveRefused(
        `The database ${describeDatabaseUrl(url)} is not empty: it holds an office already (${describeRows(held)}). migrate copies an office into an empty database only; nothing was changed.`,
      );

    io.out('Copying rows');
    const rows = progressLine(io, 'rows');
    let table = '';
    await copyTables(source.ctx.db, targetDb, (progress) => {
      if (progress.table !== table) table = progress.table;
      if (progress.total > 0) rows(progress.copied, progress.total);
    });
    const targetKeys = await openDatabaseKeyStore(targetDb, masterKey);
    const keyNames = await copyKeys(source.ctx.keys, targetKeys);
    io.out(`Copied ${keyNames.length} keys into the database, sealed with the master key (${masterKey.givenAs})`);
    const targetPaths = prepareDataDir(filesTo);
    io.out('Copying the stored files into the database');
    const files = await copyFiles(
      source.ctx.db,
      source.ctx.paths.files,
      databaseFileSinkOf(targetDb),
      progressLine(io, 'files'),
    );

    const targetConfig: Config = {
      ...sourceConfig,
      dataDir: filesTo,
      database: { kind: 'postgres', url, poolMax: 4, masterKey: {} },
    };
    const target = await createContext({
      config: targetConfig,
      paths: targetPaths,
      db: targetDb,
      keys: targetKeys,
      logger: pino({ level: 'silent' }),
      baseUrl: () => source.ctx.baseUrl(),
      partyBaseUrl: () => source.ctx.partyBaseUrl(),
    });
    targetDbOpen = false;
    closing.push(() => closeContext(target, () => targetDb.close()));

    io.out('Checking the copy');
    const problems = [...(await compareCounts(source.ctx, target)), ...(await compareKeys(source.ctx, target))];
    const chains = await checkChains(source.ctx, target, progressLine(io, 'chains'));
    problems.push(...chains.problems);
    const seal = await checkNewestSeal(target);
    if (seal && !(seal.isValid && ['intact', 'extended'].includes(seal.verdict)))
      problems.push(`the seal of contract ${seal.contractId} does not verify on PostgreSQL (${seal.verdict})`);
    if (problems.length > 0)
      throw new Error(
        `The copy in ${describeDatabaseUrl(url)} does not match the office in SQLite:\n  ${problems.slice(0, 20).join('\n  ')}\nThe office in DATA_DIR is unchanged. Empty the PostgreSQL database (DROP DATABASE, CREATE DATABASE) before trying again.`,
      );
    const counts = await countRows(targetDb);
    const total = Object.entries(counts).reduce((sum, [name, n]) => sum + (name === 'sealed_keys' ? 0 : n), 0);
    io.out(
      `Verified: ${total} rows in ${Object.keys(counts).length} tables, ${keyNames.length} keys, ${files} stored files`,
    );
    io.out(
      `Verified: ${chains.contracts} contract chains and the office log (${chains.entries} entries), intact and ending where they end in SQLite`,
    );
    io.out(
      seal
        ? `Verified: the seal of contract ${seal.contractId} (${seal.subject}) is ${seal.verdict} on PostgreSQL`
        : 'No contract is sealed yet: there was no seal to verify',
    );
    io.out(
      `Done. Start SignDesk with DATABASE_URL=${describeDatabaseUrl(url)}, the same master key and DATA_DIR=${filesTo}. The SQLite office in ${sourceConfig.dataDir} is unchanged: do not start it again, or the two offices part ways.`,
    );
  } finally {
    for (const close of closing.reverse()) await close();
  }
}

async function closeContext(ctx: AppContext, close: () => Promise<void>): Promise<void> {
  await ctx.pdf.close();
  await ctx.search.close();
  await close();
}
