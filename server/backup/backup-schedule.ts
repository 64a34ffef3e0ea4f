import type { ReadContext } from '../context/read-context';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TBackupDrill, TBackupResult, TBackupSchedule, TBackupScheduleUpdate } from '../../shared/api/backup';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { openSetting, sealSetting } from '../crypto/settings-seal';
import { inTransaction } from '../db/open-database';
import { assertOutsideDataDir } from './backup-folder';

export const BACKUP_QUEUE = 'backup';
/** The one job of the backup queue refers to the schedule, not to a row. */
const SCHEDULE_JOB_REF = 1;
const KEYS = {
  schedule: 'backup.schedule',
  passphrase: 'backup.passphrase',
  lastResult: 'backup.last_result',
  lastDrill: 'backup.last_drill',
  restoredCopy: 'backup.restored_copy',
} as const;

/** Set in a database a restore brings in: its schedule waits until the admin confirms the copy (restore-backup.ts). */
export const RESTORED_COPY_KEY = KEYS.restoredCopy;
export type RestoredCopy = { madeTime: string; restoredAt: number };
/** A restore drill of a scheduled backup (restore-drill.ts). */
export type StoredDrill = { at: number; file: string; checks: string[]; error: string | null };

export type BackupSchedule = { isEnabled: boolean; folder: string | null; intervalHours: number; keep: number };
/** A finished run, as stored: epoch ms, so that it shows in whatever zone the office has later. */
export type StoredResult = { at: number; file: string | null; sizeBytes: number | null; error: string | null };

const DEFAULT_SCHEDULE: BackupSchedule = { isEnabled: false, folder: null, intervalHours: 24, keep: 7 };

async function readJson<T>(ctx: ReadContext, key: string): Promise<T | undefined> {
  const text = await ctx.repos.settings.get(key);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export async function readBackupSchedule(ctx: ReadContext): Promise<BackupSchedule> {
  return { ...DEFAULT_SCHEDULE, ...(await readJson<Partial<BackupSchedule>>(ctx, KEYS.schedule)) };
}

/** The passphrase of scheduled backups, unsealed with the key in the key store; undefined when none (or it cannot be opened). */
export async function readSchedulePassphrase(ctx: AppContext): Promise<string | undefined> {
  const sealed = await ctx.repos.settings.get(KEYS.passphrase);
  return sealed === undefined ? undefined : openSetting(ctx.keys, KEYS.passphrase, sealed);
}

export async function recordBackupResult(ctx: AppContext, result: StoredResult): Promise<void> {
  await ctx.repos.settings.set(KEYS.lastResult, JSON.stringify(result), ctx.now());
}

export async function recordDrillResult(ctx: AppContext, drill: StoredDrill): Promise<void> {
  await ctx.repos.settings.set(KEYS.lastDrill, JSON.stringify(drill), ctx.now());
}

/** The restored copy this office is, until the admin confirms it; undefined for an office that was not restored. */
export async function readRestoredCopy(ctx: ReadContext): Promise<RestoredCopy | undefined> {
  return readJson<RestoredCopy>(ctx, KEYS.restoredCopy);
}

/**
 * The admin says this restored office is now the office (not a copy beside the original): the
 * schedule runs again, at once when it is enabled.
 */
export async function confirmRestoredCopy(ctx: AppContext): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await ctx.repos.settings.remove(KEYS.restoredCopy);
    if ((await readBackupSchedule(ctx)).isEnabled) await planJob(ctx, ctx.now());
  });
  ctx.backups.wake();
}

async function presentDrill(ctx: ReadContext): Promise<TBackupDrill | null> {
  const drill = await readJson<StoredDrill>(ctx, KEYS.lastDrill);
  if (!drill) return null;
  return {
    time: ctx.timestamp(drill.at),
    file: drill.file,
    is_ok: drill.error === null,
    checks: drill.checks,
    error: drill.error,
  };
}

async function presentResult(ctx: ReadContext): Promise<TBackupResult | null> {
  const result = await readJson<StoredResult>(ctx, KEYS.lastResult);
  if (!result) return null;
  return { time: ctx.timestamp(result.at), file: result.file, size_bytes: result.sizeBytes, error: result.error };
}

export async function presentBackupSchedule(ctx: ReadContext): Promise<TBackupSchedule> {
  const schedule = await readBackupSchedule(ctx);
  const restored = await readRestoredCopy(ctx);
  const next = schedule.isEnabled && !restored ? await ctx.repos.jobs.nextDueAt(BACKUP_QUEUE) : undefined;
  return {
    is_enabled: schedule.isEnabled,
    folder: schedule.folder,
    interval_hours: schedule.intervalHours,
    keep: schedule.keep,
    has_passphrase: (await ctx.repos.settings.get(KEYS.passphrase)) !== undefined,
    next_run_time: ctx.timestampOrNull(next),
    last_result: await presentResult(ctx),
    last_drill: await presentDrill(ctx),
    restored_copy: restored
      ? { backup_made_time: restored.madeTime, restored_time: ctx.timestamp(restored.restoredAt) }
      : null,
  };
}

/** A folder the appliance can write backups into: outside DATA_DIR, made when missing, then a test file written and removed. */
function checkFolder(ctx: AppContext, folder: string): void {
  assertOutsideDataDir(folder, ctx.paths.root);
  try {
    fs.mkdirSync(folder, { recursive: true });
    // Made, then checked again: a symlink on the way may only now lead into DATA_DIR.
    assertOutsideDataDir(folder, ctx.paths.root);
    const probe = path.join(folder, `.signdesk-write-test-${randomBytes(9).toString('hex')}`);
    fs.writeFileSync(probe, '', { flag: 'wx' });
    fs.rmSync(probe);
  } catch (err) {
    if (err instanceof AppError) throw err;
    const why = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new AppError('validation-failed', 'SignDesk cannot write to that folder.', {
      validationErrors: [`folder: cannot be written to (${why})`],
    });
  }
}

/** Puts the schedule's one job at `runAt` (or removes it when null). Call inside a transaction. */
async function planJob(ctx: AppContext, runAt: number | null): Promise<void> {
  await ctx.repos.jobs.plan(BACKUP_QUEUE, SCHEDULE_JOB_REF, runAt, ctx.now());
}

/**
 * Saves the schedule; the passphrase is stored only sealed. Enabling (or a new folder or
 * passphrase) makes a backup now, so the admin sees at once that it works; a new interval counts
 * from the last backup.
 */
export async function updateBackupSchedule(ctx: AppContext, input: TBackupScheduleUpdate): Promise<void> {
  const current = await readBackupSchedule(ctx);
  const next: BackupSchedule = {
    isEnabled: input.is_enabled ?? current.isEnabled,
    folder: input.folder !== undefined ? path.resolve(input.folder) : current.folder,
    intervalHours: input.interval_hours ?? current.intervalHours,
    keep: input.keep ?? current.keep,
  };
  const hasPassphrase = input.passphrase !== undefined || (await ctx.repos.settings.get(KEYS.passphrase)) !== undefined;
  if (next.isEnabled) {
    const missing = [
      next.folder === null ? 'folder: is needed to enable scheduled backups' : '',
      hasPassphrase ? '' : 'passphrase: is needed to enable scheduled backups',
    ].filter(Boolean);
    if (missing.length > 0)
      throw new AppError('validation-failed', 'Scheduled backups need a folder and a passphrase.', {
        validationErrors: missing,
      });
  }
  if (next.folder !== null && input.folder !== undefined) checkFolder(ctx, next.folder);
  const sealed =
    input.passphrase === undefined ? undefined : await sealSetting(ctx.keys, KEYS.passphrase, input.passphrase);
  const isRestarted =
    next.isEnabled && (!current.isEnabled || input.folder !== undefined || input.passphrase !== undefined);
  await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    await ctx.repos.settings.set(KEYS.schedule, JSON.stringify(next), now);
    if (sealed !== undefined) await ctx.repos.settings.set(KEYS.passphrase, sealed, now);
    if (!next.isEnabled) await planJob(ctx, null);
    else if (isRestarted) await planJob(ctx, now);
    else if (input.interval_hours !== undefined) {
      const last = await readJson<StoredResult>(ctx, KEYS.lastResult);
      await planJob(ctx, Math.max(now, (last?.at ?? now) + next.intervalHours * 3_600_000));
    }
  });
  ctx.backups.wake();
}

/** "Back up now" to the schedule's folder: the job comes due at once. */
export async function runScheduledBackupNow(ctx: AppContext): Promise<void> {
  const schedule = await readBackupSchedule(ctx);
  if (await readRestoredCopy(ctx))
    throw new AppError(
      'conflict',
      'This office is a restored copy: its scheduled backups wait until you confirm it is now the office.',
    );
  if (!schedule.isEnabled)
    throw new AppError('conflict', 'Scheduled backups are off: enable them (with a folder and a passphrase) first.');
  await inTransaction(ctx.db, async () => {
    // One backup at a time: while one is being made or drilled (its job claimed, none queued) a
    // second is not queued behind it.
    const jobs = ctx.repos.jobs;
    if (
      (await jobs.exists(BACKUP_QUEUE, SCHEDULE_JOB_REF)) &&
      (await jobs.plannedAt(BACKUP_QUEUE, SCHEDULE_JOB_REF)) === undefined
    )
      throw new AppError('conflict', 'A backup is being made or checked now: its result shows here when it is done.');
    await planJob(ctx, ctx.now());
  });
  ctx.backups.wake();
}
