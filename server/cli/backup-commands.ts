import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MIN_BACKUP_PASSPHRASE_LENGTH } from '../../shared/api/backup';
import { assertOutsideDataDir, createPartialFile } from '../backup/backup-folder';
import { BackupRejected } from '../backup/read-backup';
import { restoreBackupOffline } from '../backup/restore-backup';
import { writeBackup } from '../backup/write-backup';
import type { Config } from '../config/config';
import type { AppContext } from '../context/app-context';
import { ACTIVE_ADMINISTRATOR } from '../policies/actors';
import { UsageError, type CliIo } from './run-cli';

/** Whether DATA_DIR holds an office's SQLite database (opening the folder would make an empty one). */
export const holdsOffice = (dataDir: string) => fs.existsSync(path.join(dataDir, 'signdesk.sqlite'));
export const NO_OFFICE = (where: string) =>
  `${where} holds no SignDesk office: nothing was backed up. Set DATA_DIR to the office's data folder (the admin UI's Settings page shows it), or DATABASE_URL to its database.`;

/** BACKUP_PASSPHRASE, else asked on the terminal (twice when it makes a new backup). */
async function readPassphrase(env: Record<string, string | undefined>, io: CliIo, isNew: boolean): Promise<string> {
  let passphrase = env.BACKUP_PASSPHRASE;
  if (passphrase === undefined || passphrase === '') {
    if (!io.askSecret)
      throw new UsageError('Set BACKUP_PASSPHRASE, or run the command in a terminal to be asked for the passphrase.');
    passphrase = await io.askSecret('Backup passphrase: ');
    if (isNew && (await io.askSecret('The same passphrase again: ')) !== passphrase)
      throw new UsageError('The two passphrases differ; nothing was written.');
  }
  if (isNew && passphrase.length < MIN_BACKUP_PASSPHRASE_LENGTH) {
    throw new UsageError(`The passphrase must be at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters.`);
  }
  return passphrase;
}

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/** `backup create --out FILE`: the whole office into one encrypted file (written aside, renamed when whole). */
export async function backupCreate(
  ctx: AppContext,
  args: string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<void> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  if (!values.out) throw new UsageError('backup create needs --out FILE');
  const file = path.resolve(values.out);
  // An office has its first administrator from its first run on: without one there is nothing to keep.
  if (!(await ctx.repos.users.firstMatching(ACTIVE_ADMINISTRATOR))) throw new UsageError(NO_OFFICE(ctx.paths.root));
  assertOutsideDataDir(path.dirname(file), ctx.paths.root);
  if (fs.lstatSync(file, { throwIfNoEntry: false })) throw new UsageError(`${file} exists already; choose a new name.`);
  const passphrase = await readPassphrase(env, io, true);
  const partial = createPartialFile(file);
  try {
    const { bytes, manifest } = await writeBackup(ctx, passphrase, partial.stream);
    partial.finish();
    io.out(
      `Backed up ${manifest.office_name || 'the office'} (database, ${manifest.keys.length} key files, ${manifest.file_count} stored files) into ${file} (${formatSize(bytes)}).`,
    );
  } catch (err) {
    partial.discard();
    throw err;
  }
}

/** `backup restore --in FILE`: refuses while the server runs on DATA_DIR; a bad file or passphrase changes nothing. */
export async function backupRestore(
  config: Config,
  args: string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<void> {
  const { values } = parseArgs({ args, options: { in: { type: 'string' } } });
  if (!values.in) throw new UsageError('backup restore needs --in FILE');
  io.out(`DATA_DIR: ${config.dataDir}`);
  const file = path.resolve(values.in);
  if (!fs.existsSync(file)) throw new UsageError(`No such file: ${file}`);
  const passphrase = await readPassphrase(env, io, false);
  try {
    const { manifest } = await restoreBackupOffline(
      config.dataDir,
      fs.createReadStream(file),
      passphrase,
      config.database.kind === 'postgres'
        ? { url: config.database.url, masterKey: config.database.masterKey }
        : undefined,
    );
    io.out(
      `Restored ${manifest.office_name || 'the office'} as backed up ${manifest.created_time} (${manifest.time_zone}) into ${config.dataDir}.`,
    );
  } catch (err) {
    if (err instanceof BackupRejected) throw new Error(`Nothing was changed: ${err.message}`, { cause: err });
    throw err;
  }
}
