import { Transform } from 'node:stream';
import { tooLargeDetail } from '../../shared/sizes';
import {
  BACKUP_CONTENT_TYPE,
  BACKUP_PASSPHRASE_HEADER,
  BACKUP_SCHEDULE_READ_ONLY_FIELDS,
  MAX_RESTORE_BYTES,
  ZBackupCreateSchema,
  ZBackupScheduleSchema,
  ZBackupScheduleUpdateSchema,
  ZRestoreResultSchema,
} from '../../shared/api/backup';
import {
  confirmRestoredCopy,
  presentBackupSchedule,
  runScheduledBackupNow,
  updateBackupSchedule,
} from '../backup/backup-schedule';
import { BackupRejected } from '../backup/read-backup';
import { restoreBackupLive } from '../backup/restore-backup';
import { writeBackup } from '../backup/write-backup';
import type { RouteContext } from '../http/route';
import { AppError } from '../core/errors';
import { isStorageFull, storageFullProblem } from '../core/storage-full';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { clearSessionCookie } from '../http/session-cookie';

/** The passphrase header: base64 of the UTF-8 bytes, checked strictly (a typo is a 400, not a wrong passphrase). */
function readPassphraseHeader(value: string | undefined): string {
  const fail = (line: string) =>
    new AppError(
      'validation-failed',
      `Send the passphrase in the ${BACKUP_PASSPHRASE_HEADER} header, as base64 of its UTF-8 bytes.`,
      {
        validationErrors: [`passphrase: ${line}`],
      },
    );
  if (!value) throw fail('is missing');
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length === 0 || bytes.toString('base64').replace(/=+$/, '') !== value.trim().replace(/=+$/, ''))
    throw fail('is not base64');
  return bytes.toString('utf8');
}

/** Passes the body on, refusing it with 413 past `max` bytes. */
function limitBytes(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) callback(new AppError('payload-too-large', tooLargeDetail('backup file', undefined, max)));
      else callback(null, chunk);
    },
  });
}

function backupFileName(ctx: RouteContext): string {
  return `signdesk-${ctx.timestamp(ctx.now()).replace(/[-:]/g, '').replace(' ', '-')}.sdbackup`;
}

const tag = 'Settings';

export const backupRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/settings/backup',
    operationId: 'createBackup',
    summary: 'Download a whole-office backup, encrypted with the passphrase sent',
    description:
      'One file with the database (SQLite online backup: requests go on meanwhile; the settings are in it), every key of DATA_DIR/keys (webhook signing keys, the seal certificate and its key, the appliance secret) and the stored files, encrypted with the passphrase (Argon2id, XChaCha20-Poly1305). Restored on a new computer it gives the same office: webhooks sign with the same keys, PDFs are sealed with the same certificate, signing links keep working. Streamed; it has no Content-Length.',
    tag,
    access: 'admin',
    body: ZBackupCreateSchema,
    example: { body: { passphrase: 'correct horse battery staple' }, output: 'signdesk.sdbackup' },
    responses: { 200: { description: 'The backup file (.sdbackup)', contentType: BACKUP_CONTENT_TYPE } },
    handler: async ({ res, ctx, body, act }) => {
      let isStarted = false;
      // The database is copied (into DATA_DIR) first: a full disk there is still a 507 problem.
      const start = () => {
        isStarted = true;
        res.status(200);
        res.setHeader('Content-Type', BACKUP_CONTENT_TYPE);
        res.setHeader('Content-Disposition', `attachment; filename="${backupFileName(ctx)}"`);
        res.setHeader('Cache-Control', 'no-store');
      };
      try {
        await act(writeBackup, body.passphrase, res, undefined, undefined, start);
      } catch (err) {
        if (!isStarted) throw isStorageFull(err) ? storageFullProblem() : err;
        // The headers are out: all that can be said is that the file is not whole.
        ctx.logger.error({ err }, 'backup download failed');
        res.destroy(err as Error);
      }
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/restore',
    operationId: 'restoreBackup',
    summary: 'Replace all data, keys and files with a backup made by createBackup',
    description: `The body is the backup file; the passphrase goes in the \`${BACKUP_PASSPHRASE_HEADER}\` header as base64 of its UTF-8 bytes. The file is decrypted and checked whole before anything changes: a wrong passphrase, a damaged or cut-off file, or a backup of a newer SignDesk is a 400 that says why and changes nothing. Every admin session ends.`,
    tag,
    access: 'admin',
    rawBody: {
      contentTypes: [BACKUP_CONTENT_TYPE, 'application/octet-stream'],
      maxBytes: MAX_RESTORE_BYTES,
      description: 'The backup file',
      isStreamed: true,
    },
    example: {
      headers: { [BACKUP_PASSPHRASE_HEADER]: Buffer.from('correct horse battery staple').toString('base64') },
      file: { name: 'signdesk.sdbackup', contentType: BACKUP_CONTENT_TYPE },
    },
    responses: { 200: { description: 'Restored', schema: ZRestoreResultSchema } },
    handler: async ({ req, res, act }) => {
      const passphrase = readPassphraseHeader(
        req.headers[BACKUP_PASSPHRASE_HEADER.toLowerCase()] as string | undefined,
      );
      let outcome;
      try {
        outcome = await act(restoreBackupLive, req.pipe(limitBytes(MAX_RESTORE_BYTES)), passphrase);
      } catch (err) {
        req.resume();
        if (!(err instanceof BackupRejected)) throw err;
        const field = err.reason === 'wrong-passphrase' ? 'passphrase' : 'file';
        throw new AppError('validation-failed', `Nothing was changed: ${err.message}`, {
          validationErrors: [`${field}: ${err.message}`],
        });
      }
      clearSessionCookie(req, res);
      sendJson(res, 200, {
        restored: true,
        detail: `The backup of ${outcome.manifest.office_name || 'the office'} made ${outcome.manifest.created_time} was restored. Sign in again.`,
        office_name: outcome.manifest.office_name,
        made_time: outcome.manifest.created_time,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/backup_schedule',
    operationId: 'getBackupSchedule',
    summary: 'Scheduled backups: folder, interval, how many are kept, and the last result',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The schedule', schema: ZBackupScheduleSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentBackupSchedule(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/backup_schedule',
    operationId: 'updateBackupSchedule',
    summary: 'Change the backup schedule; only the fields sent change',
    description:
      'The passphrase is write-only and stored sealed with a key of DATA_DIR/keys, never in clear. Enabling (or a new folder or passphrase) makes a backup at once; the newest `keep` scheduled backups stay in the folder, older ones are deleted.',
    tag,
    access: 'admin',
    body: ZBackupScheduleUpdateSchema,
    readOnlyFields: BACKUP_SCHEDULE_READ_ONLY_FIELDS,
    example: {
      body: {
        is_enabled: true,
        folder: '/srv/backups/signdesk',
        interval_hours: 24,
        keep: 7,
        passphrase: 'correct horse battery staple',
      },
    },
    responses: { 200: { description: 'The schedule', schema: ZBackupScheduleSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(updateBackupSchedule, body);
      sendJson(res, 200, await presentBackupSchedule(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/backup_schedule/run',
    operationId: 'runScheduledBackup',
    summary: 'Make a scheduled backup into the folder now',
    description:
      'One backup at a time: while a scheduled backup is being made this answers 409 and queues none behind it (a restored copy not yet confirmed, and a schedule that is off, are 409 too).',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The schedule, the backup due now', schema: ZBackupScheduleSchema } },
    problemStatuses: [409],
    handler: async ({ res, ctx, act }) => {
      await act(runScheduledBackupNow);
      sendJson(res, 200, await presentBackupSchedule(ctx));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/settings/backup_schedule/confirm_restored_copy',
    operationId: 'confirmRestoredCopy',
    summary: 'Confirm that this restored office is now the office: its scheduled backups run again',
    description:
      'A restored office says so in `restored_copy` and its scheduled backups wait, since the schedule came with the backup and would write into the original office’s folder. Check the folder first (change it with updateBackupSchedule if this copy runs beside the original), then confirm. Confirming an office that is not a restored copy changes nothing.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The schedule, running again', schema: ZBackupScheduleSchema } },
    handler: async ({ res, ctx, act }) => {
      await act(confirmRestoredCopy);
      sendJson(res, 200, await presentBackupSchedule(ctx));
    },
  }),
];
