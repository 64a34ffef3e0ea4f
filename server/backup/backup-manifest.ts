/** What a whole-office backup holds, written first in its archive. */
export type BackupManifest = {
  format: number;
  app_version: string;
  /** When it was made, in the office's time zone (`time_zone`). */
  created_time: string;
  time_zone: string;
  office_name: string;
  /** Files of DATA_DIR/keys and DATA_DIR/files, relative to those folders. */
  keys: string[];
  files: string[];
};

export const BACKUP_FORMAT = 1;
export const BACKUP_MANIFEST_ENTRY = 'manifest.json';
export const BACKUP_DATABASE_ENTRY = 'database/signdesk.sqlite';
/** The file name ending of backups (the scheduled ones are found by it when old ones are pruned). */
export const BACKUP_EXTENSION = '.sdbackup';
