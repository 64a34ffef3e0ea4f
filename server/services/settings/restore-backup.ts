import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../context';
import { BackupRejected, backupDatabase, restoreDatabase } from '../../db/backup';
import { createRepos } from '../../db/repos';
import { AppError } from '../../core/errors';
import { applyGeneralSettings } from './apply-general-settings';
import { sealSecretsAtRest } from '../secrets/seal-at-rest';

function scratchFile(name: string): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-backup-'));
  return { file: path.join(dir, name), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A copy of the live database in a scratch file; call remove() once it has been sent. */
export async function makeBackupFile(ctx: AppContext): Promise<{ file: string; remove(): void }> {
  const scratch = scratchFile('signdesk.sqlite');
  try {
    await backupDatabase(ctx.db, scratch.file);
    return scratch;
  } catch (err) {
    scratch.remove();
    throw err;
  }
}

/**
 * Replaces everything with an uploaded backup after checking it is a sound SignDesk
 * database. Every session ends (the restored users may differ); settings are re-read.
 */
export async function restoreBackup(ctx: AppContext, bytes: Buffer): Promise<void> {
  if (bytes.length === 0) throw new AppError('validation-failed', 'Send the backup file as the body.', { validationErrors: ['body: is empty'] });
  const scratch = scratchFile('upload.sqlite');
  try {
    fs.writeFileSync(scratch.file, bytes);
    await restoreDatabase(ctx.db, scratch.file, ctx.admin.migrationsFolder);
  } catch (err) {
    if (err instanceof BackupRejected) {
      throw new AppError('validation-failed', `Nothing was changed: ${err.message}`, { validationErrors: [`file: ${err.message}`] });
    }
    throw err;
  } finally {
    scratch.remove();
  }
  // Fresh repositories: no cached row of the old database survives.
  ctx.repos = createRepos(ctx.db);
  ctx.repos.adminSessions.deleteAll();
  // A backup of an older version may hold links and passwords in clear.
  sealSecretsAtRest(ctx);
  applyGeneralSettings(ctx);
  ctx.logger.warn('database restored from an uploaded backup');
}
