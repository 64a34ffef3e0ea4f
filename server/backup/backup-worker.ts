import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context/app-context';
import type { JobRow } from '../db/repos/jobs';
import { createRunner, type JobOutcome } from '../jobs/runner';
import type { Worker } from '../jobs/worker';
import { BACKUP_EXTENSION } from './backup-manifest';
import { assertOutsideDataDir, createPartialFile } from './backup-folder';
import {
  BACKUP_QUEUE,
  readBackupSchedule,
  readRestoredCopy,
  readSchedulePassphrase,
  recordBackupResult,
  recordDrillResult,
} from './backup-schedule';
import { runRestoreDrill } from './restore-drill';
import { writeBackup } from './write-backup';

const SCHEDULED_NAME = /^signdesk-backup-\d{8}-\d{6}(-\d+)?\.sdbackup$/;
/** A failed backup is tried again this soon (or at the next interval, when that is sooner). */
const RETRY_AFTER_FAILURE_MS = 60 * 60_000;

/** `signdesk-backup-20261124-013000.sdbackup` in the office's time zone (`-2`, `-3`… when that second is taken). */
function freshFileIn(ctx: AppContext, folder: string): string {
  const stamp = ctx.timestamp(ctx.now()).replace(/[-:]/g, '').replace(' ', '-');
  for (let n = 1; ; n += 1) {
    const file = path.join(folder, `signdesk-backup-${stamp}${n === 1 ? '' : `-${n}`}${BACKUP_EXTENSION}`);
    // lstat: a dangling symlink planted at the name counts as taken.
    if (!fs.lstatSync(file, { throwIfNoEntry: false })) return file;
  }
}

/** Deletes the oldest scheduled backups in the folder beyond the newest `keep` (other files are left alone). */
function pruneOld(folder: string, keep: number): void {
  const ours = fs
    .readdirSync(folder)
    .filter((name) => SCHEDULED_NAME.test(name))
    .map((name) => ({ name, stat: fs.lstatSync(path.join(folder, name)) }))
    // Only our own files: a symlink or a folder someone put there under such a name stays.
    .filter(({ stat }) => stat.isFile())
    .map(({ name, stat }) => ({ name, at: stat.mtimeMs }))
    .sort((a, b) => b.at - a.at || b.name.localeCompare(a.name));
  for (const { name } of ours.slice(keep)) fs.rmSync(path.join(folder, name), { force: true });
}

/** One scheduled backup into the folder: written under an unpredictable name, created exclusively, named when whole. */
async function runScheduledBackup(
  ctx: AppContext,
  signal: AbortSignal,
): Promise<{ file: string; sizeBytes: number; passphrase: string }> {
  const schedule = await readBackupSchedule(ctx);
  const passphrase = await readSchedulePassphrase(ctx);
  if (!schedule.folder) throw new Error('no folder is set');
  if (passphrase === undefined)
    throw new Error(
      'the stored passphrase cannot be read (DATA_DIR/keys/settings-seal.key is missing or another one): save it again',
    );
  // Checked again at every run: a folder saved by an older version, or a symlink changed since.
  assertOutsideDataDir(schedule.folder, ctx.paths.root);
  fs.mkdirSync(schedule.folder, { recursive: true });
  const file = freshFileIn(ctx, schedule.folder);
  const partial = createPartialFile(file);
  try {
    const { bytes } = await writeBackup(ctx, passphrase, partial.stream, undefined, signal);
    partial.finish();
    pruneOld(schedule.folder, schedule.keep);
    return { file, sizeBytes: bytes, passphrase };
  } catch (err) {
    partial.discard();
    throw err;
  }
}

/**
 * The scheduled backups, run by the durable queue: one job that, once done, puts itself at the
 * next interval. Each result (time, file and size, or the error) is kept for the admin UI.
 */
export function createBackupWorker(ctx: AppContext): Worker {
  const logger = ctx.logger.child({ worker: 'backup' });
  const handle = async (_job: JobRow, signal: AbortSignal): Promise<JobOutcome> => {
    const schedule = await readBackupSchedule(ctx);
    // A restored copy waits for the admin: it would write into the original office's folder.
    if (!schedule.isEnabled || (await readRestoredCopy(ctx))) return { kind: 'done' };
    const interval = schedule.intervalHours * 3_600_000;
    try {
      const { passphrase, ...made } = await runScheduledBackup(ctx, signal);
      await recordBackupResult(ctx, { at: ctx.now(), file: made.file, sizeBytes: made.sizeBytes, error: null });
      logger.info(made, 'scheduled backup written');
      const drill = await runRestoreDrill(ctx, made.file, passphrase);
      await recordDrillResult(ctx, { at: ctx.now(), file: made.file, ...drill });
      if (drill.error) logger.error({ file: made.file, error: drill.error }, 'restore drill failed');
      return { kind: 'again', at: ctx.now() + interval };
    } catch (err) {
      // The server stops: the backup is made again at its next start.
      if (signal.aborted) return { kind: 'retry', at: ctx.now(), error: 'the server stopped during the backup' };
      const error = err instanceof Error ? err.message : String(err);
      await recordBackupResult(ctx, { at: ctx.now(), file: null, sizeBytes: null, error });
      logger.error({ err }, 'scheduled backup failed');
      return { kind: 'retry', at: ctx.now() + Math.min(interval, RETRY_AFTER_FAILURE_MS), error };
    }
  };
  const runner = createRunner({
    queue: BACKUP_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle,
    logger,
    now: ctx.now,
    concurrency: 1,
    leaseMs: 60_000,
    timeoutMs: 6 * 3_600_000,
    // SIGTERM must not wait for a backup of hundreds of MB.
    abortOnStop: true,
  });
  let unlisten: (() => void) | undefined;
  return {
    name: 'backup',
    start() {
      unlisten = ctx.backups.listen(() => runner.wake());
      runner.start();
    },
    async stop() {
      unlisten?.();
      await runner.stop();
    },
  };
}
