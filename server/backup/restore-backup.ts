import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AppContext } from '../context/app-context';
import { reloadKeys } from '../context/office-keys';
import { prepareDataDir, type DataDirLayout } from '../db/data-dir';
import { DataDirBusy, lockDataDir } from '../db/data-dir-lock';
import { restoreDatabase } from '../db/backup';
import { openDatabase } from '../db/open-database';
import { createRepos } from '../db/repos';
import { openPostgres } from '../db/pg/open-postgres';
import { inTransaction } from '../db/database';
import { createFileKeyStore } from '../crypto/file-key-store';
import type { KeyStore } from '../crypto/key-store';
import { readMasterKey, type MasterKeySource } from '../crypto/master-key';
import { openDatabaseKeyStore } from '../secrets/database-key-store';
import { upgradeEvidence } from '../evidence/upgrade-evidence';
import { applyGeneralSettings } from '../settings/apply-general-settings';
import { sealSecretsAtRest } from '../messages/seal-at-rest';
import type { BackupManifest } from './backup-manifest';
import { RESTORED_COPY_KEY, type RestoredCopy } from './backup-schedule';
import { BackupRejected, readBackup } from './read-backup';
import { makeScratchDir, removeStaleScratch } from './scratch-dir';

/** Puts staged paths in place of live ones by renaming; the live ones wait aside until commit(), and undo() puts them back. */
function swapIn(pairs: ReadonlyArray<{ live: string; staged: string | undefined }>, asideDir: string) {
  const done: Array<() => void> = [];
  const undo = () => {
    for (const step of done.splice(0).reverse()) step();
  };
  try {
    pairs.forEach(({ live, staged }, index) => {
      const aside = path.join(asideDir, `${index}-${path.basename(live)}`);
      if (fs.existsSync(live)) {
        fs.renameSync(live, aside);
        done.push(() => fs.renameSync(aside, live));
      }
      if (staged !== undefined && fs.existsSync(staged)) {
        fs.renameSync(staged, live);
        done.push(() => fs.rmSync(live, { recursive: true, force: true }));
      }
    });
  } catch (err) {
    undo();
    throw err;
  }
  return { undo };
}

/** keys/ and files/ of the backup in place of DATA_DIR's (an empty folder where the backup had none). */
function folderPairs(paths: DataDirLayout, staged: { keysDir: string; filesDir: string }) {
  for (const dir of [staged.keysDir, staged.filesDir]) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return [
    { live: paths.keys, staged: staged.keysDir },
    { live: paths.files, staged: staged.filesDir },
  ];
}

/** The backup's keys (put in DATA_DIR/keys by the swap) into a key store of the database's (PostgreSQL's). */
async function putKeys(keysDir: string, keys: KeyStore): Promise<void> {
  const from = createFileKeyStore(keysDir);
  for (const name of await from.list()) {
    const value = await from.read(name);
    if (value) await keys.replace(name, value);
  }
}

export type RestoreOutcome = { manifest: BackupManifest; dataDir: string };

/** The restored office says it is a copy, and its schedule waits, until the admin confirms (backup-schedule.ts). */
async function markRestoredCopy(
  repos: ReturnType<typeof createRepos>,
  manifest: BackupManifest,
  now: number,
): Promise<void> {
  const copy: RestoredCopy = { madeTime: manifest.created_time, restoredAt: now };
  await repos.settings.set(RESTORED_COPY_KEY, JSON.stringify(copy), now);
}

/**
 * The CLI's restore, with the server stopped: the backup is read and checked whole in a folder
 * of DATA_DIR first, then the database, keys and files are put in place by renames (a failure
 * puts the old ones back), and the database is brought up to this version. Holds DATA_DIR's lock
 * throughout, so it refuses while a server (or another command) has it.
 */
export async function restoreBackupOffline(
  dataDir: string,
  source: Readable,
  passphrase: string,
  /** The office's PostgreSQL database (DATABASE_URL, the master key), whose content the backup's replaces; else SQLite in DATA_DIR. */
  postgresUrl?: { url: string; masterKey: MasterKeySource },
): Promise<RestoreOutcome> {
  const paths = prepareDataDir(dataDir);
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(paths.root, 'cli backup restore');
  } catch (err) {
    if (!(err instanceof DataDirBusy)) throw err;
    throw new BackupRejected(
      `${err.message} A restore needs it stopped. (In the running app, Settings → Backup restores without stopping.)`,
    );
  }
  let staging: ReturnType<typeof makeScratchDir>;
  try {
    removeStaleScratch(paths.root);
    staging = makeScratchDir(paths.root, 'restore');
  } catch (err) {
    lock.release();
    throw err;
  }
  try {
    const staged = await readBackup(source, passphrase, staging.dir);
    const aside = path.join(staging.dir, 'replaced');
    fs.mkdirSync(aside);
    if (postgresUrl !== undefined) {
      const swap = swapIn(folderPairs(paths, staged), aside);
      try {
        const db = await openPostgres(postgresUrl.url);
        try {
          const keys = await openDatabaseKeyStore(db, readMasterKey(postgresUrl.masterKey));
          await inTransaction(db, async () => {
            await restoreDatabase(db, staged.database, undefined, paths.files);
            await putKeys(paths.keys, keys);
          });
          await markRestoredCopy(createRepos(db), staged.manifest, Date.now());
        } finally {
          await db.close();
        }
      } catch (err) {
        swap.undo();
        throw err;
      }
      return { manifest: staged.manifest, dataDir: paths.root };
    }
    const swap = swapIn(
      [
        { live: paths.database, staged: staged.database },
        { live: `${paths.database}-wal`, staged: undefined },
        { live: `${paths.database}-shm`, staged: undefined },
        ...folderPairs(paths, staged),
      ],
      aside,
    );
    try {
      const opened = openDatabase(paths.database);
      try {
        await markRestoredCopy(createRepos(opened.db), staged.manifest, Date.now());
      } finally {
        opened.close();
      }
    } catch (err) {
      swap.undo();
      throw err;
    }
    return { manifest: staged.manifest, dataDir: paths.root };
  } finally {
    staging.remove();
    lock.release();
  }
}

/**
 * The admin UI's restore on the running server: the backup is read and checked whole first;
 * then keys and files are swapped in, the database content replaced in place (SQLite's backup
 * API), and everything read from keys or the database is read again. Every session ends.
 */
export async function restoreBackupLive(
  ctx: AppContext,
  source: Readable,
  passphrase: string,
): Promise<RestoreOutcome> {
  const staging = makeScratchDir(ctx.paths.root, 'restore');
  try {
    const staged = await readBackup(source, passphrase, staging.dir, ctx.admin.migrationsFolder);
    const aside = path.join(staging.dir, 'replaced');
    fs.mkdirSync(aside);
    const swap = swapIn(folderPairs(ctx.paths, staged), aside);
    try {
      if (ctx.db.dialect === 'postgres')
        await inTransaction(ctx.db, async () => {
          await restoreDatabase(ctx.db, staged.database, ctx.admin.migrationsFolder, ctx.paths.files);
          await putKeys(ctx.paths.keys, ctx.keys);
        });
      else await restoreDatabase(ctx.db, staged.database, ctx.admin.migrationsFolder);
    } catch (err) {
      swap.undo();
      throw err;
    }
    await reloadKeys(ctx);
    // Fresh repositories: no cached row of the old database survives.
    ctx.repos = createRepos(ctx.db, ctx.files);
    await ctx.repos.adminSessions.deleteAll();
    await markRestoredCopy(ctx.repos, staged.manifest, ctx.now());
    // A backup of an older version may hold links and passwords in clear: sealed under its own keys.
    await sealSecretsAtRest(ctx);
    await applyGeneralSettings(ctx);
    // A backup from before the hash chain gets its chain and seal records, as at start-up.
    await upgradeEvidence(ctx);
    ctx.webhooks.wake();
    ctx.outbox.wake();
    ctx.logger.warn(
      { office: staged.manifest.office_name, made: staged.manifest.created_time },
      'restored from a backup',
    );
    return { manifest: staged.manifest, dataDir: ctx.paths.root };
  } finally {
    staging.remove();
  }
}
