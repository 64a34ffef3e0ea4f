/** What a whole-office backup holds, written first in its archive. */
export type BackupManifest = {
  format: number;
  app_version: string;
  /** When it was made, in the office's time zone (`time_zone`). */
  created_time: string;
  time_zone: string;
  office_name: string;
  /** Files of DATA_DIR/keys, relative to it. */
  keys: string[];
  /**
   * How many files of DATA_DIR/files the archive holds (an office's uploads: a list of them all
   * would outgrow the manifest). Format 1 listed them instead, in `files`.
   */
  file_count: number;
};

/** 2: the manifest comes last and counts the stored files (1: it came first and listed them). */
export const BACKUP_FORMAT = 2;
/** The formats this version restores. */
export const READABLE_BACKUP_FORMATS: readonly number[] = [1, 2];
export const BACKUP_MANIFEST_ENTRY = 'manifest.json';
export const BACKUP_DATABASE_ENTRY = 'database/signdesk.sqlite';
/** The file name ending of backups (the scheduled ones are found by it when old ones are pruned). */
export const BACKUP_EXTENSION = '.sdbackup';
