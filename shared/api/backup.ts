import { z } from 'zod';
import { MAX_STRING_LENGTH } from '../constants';
import { ZTimestampSchema } from './common';

/** The media type of a whole-office backup file (`.sdbackup`). */
export const BACKUP_CONTENT_TYPE = 'application/vnd.signdesk.backup';
/** The header that carries the restore passphrase: its UTF-8 bytes in base64 (a header cannot hold å, ä, ö). */
export const BACKUP_PASSPHRASE_HEADER = 'Backup-Passphrase';
/** Largest backup file a restore takes. */
export const MAX_RESTORE_BYTES = 4 * 1024 * 1024 * 1024;
export const MIN_BACKUP_PASSPHRASE_LENGTH = 10;

const passphrase = z
  .string()
  .min(MIN_BACKUP_PASSPHRASE_LENGTH, `must be at least ${MIN_BACKUP_PASSPHRASE_LENGTH} characters`)
  .max(MAX_STRING_LENGTH)
  .meta({
    description:
      'Encrypts the backup (Argon2id, XChaCha20-Poly1305). Without it the backup cannot be restored: keep it safe.',
  });

export const ZBackupCreateSchema = z.strictObject({ passphrase }).meta({ id: 'BackupCreate' });

export const ZRestoreResultSchema = z
  .object({
    restored: z.literal(true),
    detail: z.string(),
    office_name: z.string(),
    made_time: z.string().meta({ description: 'When the backup was made, in the time zone it was made in' }),
  })
  .meta({ id: 'RestoreResult' });

export const ZBackupResultSchema = z
  .object({
    time: ZTimestampSchema,
    file: z.string().nullable().meta({ description: 'The file written; null when the backup failed' }),
    size_bytes: z.number().int().nullable(),
    error: z.string().nullable().meta({ description: 'Why the backup failed; null when it succeeded' }),
  })
  .meta({ id: 'BackupResult' });

export const ZBackupDrillSchema = z
  .object({
    time: ZTimestampSchema,
    file: z.string().meta({ description: 'The scheduled backup that was restored into a scratch folder' }),
    is_ok: z.boolean(),
    checks: z.array(z.string()).meta({
      description:
        'What passed: restored whole, integrity_check, every stored file there, keys unseal, a seal verifies',
    }),
    error: z.string().nullable().meta({ description: 'What failed; null when every check passed' }),
  })
  .meta({
    id: 'BackupDrill',
    description:
      'Every scheduled backup is restored into a scratch folder right after it is written and checked, then the folder is removed.',
  });

export const ZRestoredCopySchema = z
  .object({
    backup_made_time: z.string().meta({ description: 'When the backup was made, in the time zone it was made in' }),
    restored_time: ZTimestampSchema,
  })
  .meta({
    id: 'RestoredCopy',
    description:
      'This office was restored from a backup and its scheduled backups wait (they would write into the original office’s folder) until an admin confirms it with confirmRestoredCopy.',
  });

export const ZBackupScheduleSchema = z
  .object({
    is_enabled: z.boolean(),
    folder: z.string().nullable().meta({ description: 'Absolute path of the folder the backups are written to' }),
    interval_hours: z.number().int(),
    keep: z.number().int().meta({ description: 'How many of the newest scheduled backups are kept in the folder' }),
    has_passphrase: z.boolean().meta({ description: 'A passphrase is stored (sealed, never shown)' }),
    next_run_time: ZTimestampSchema.nullable(),
    last_result: ZBackupResultSchema.nullable(),
    last_drill: ZBackupDrillSchema.nullable(),
    restored_copy: ZRestoredCopySchema.nullable(),
  })
  .meta({ id: 'BackupSchedule' });

export const ZBackupScheduleUpdateSchema = z
  .strictObject({
    is_enabled: z.boolean().optional(),
    folder: z
      .string()
      .min(1)
      .max(MAX_STRING_LENGTH)
      .refine(
        (text) => text.startsWith('/') || /^[A-Za-z]:[\\/]/.test(text) || text.startsWith('\\\\'),
        'must be an absolute path',
      )
      .optional(),
    interval_hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 31)
      .optional(),
    keep: z.number().int().min(1).max(1000).optional(),
    passphrase: passphrase.optional(),
  })
  .meta({
    id: 'BackupScheduleUpdate',
    description: 'Only the fields sent change. Enabling needs a folder and a passphrase.',
  });

export const BACKUP_SCHEDULE_READ_ONLY_FIELDS = [
  'has_passphrase',
  'next_run_time',
  'last_result',
  'last_drill',
  'restored_copy',
] as const;

export type TBackupCreate = z.infer<typeof ZBackupCreateSchema>;
export type TRestoreResult = z.infer<typeof ZRestoreResultSchema>;
export type TBackupResult = z.infer<typeof ZBackupResultSchema>;
export type TBackupSchedule = z.infer<typeof ZBackupScheduleSchema>;
export type TBackupDrill = z.infer<typeof ZBackupDrillSchema>;
export type TBackupScheduleUpdate = z.infer<typeof ZBackupScheduleUpdateSchema>;
