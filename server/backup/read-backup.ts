import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { BackupCipherError, createDecryptStream } from '../crypto/backup-cipher';
import { BackupRejected, checkDatabaseFile } from '../db/backup';
import {
  BACKUP_DATABASE_ENTRY,
  BACKUP_MANIFEST_ENTRY,
  READABLE_BACKUP_FORMATS,
  type BackupManifest,
} from './backup-manifest';

export { BackupRejected };

/** A manifest as this version keeps it: format 1's list of stored files becomes their count. */
function currentManifest({ files, ...written }: BackupManifest & { files?: unknown }): BackupManifest {
  return { ...written, file_count: written.format === 1 ? (files as string[]).length : written.file_count };
}

/** A relative path of the archive that stays inside its folder: no `..`, no absolute path, no backslash. */
function isSafeName(name: string): boolean {
  if (name === BACKUP_MANIFEST_ENTRY || name === BACKUP_DATABASE_ENTRY) return true;
  const match = /^(keys|files)\/(.+)$/.exec(name);
  if (!match?.[2] || name.includes('\\') || name.includes('\0')) return false;
  return match[2].split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** The cipher's reasons, in the words an admin reads. */
function rejectionOf(err: unknown): BackupRejected | undefined {
  if (err instanceof BackupRejected) return err;
  if (err instanceof BackupCipherError) return new BackupRejected(err.message, err.reason);
  return undefined;
}

/** The manifest and each key file are small; a bigger one is not a backup of ours. */
const MAX_SMALL_ENTRY_BYTES = 1024 * 1024;

/** Bytes free for an unprivileged writer on the disk of `dir` (Infinity where it cannot be told). */
function freeBytes(dir: string): number {
  try {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export type StagedBackup = { manifest: BackupManifest; database: string; keysDir: string; filesDir: string };

/**
 * Decrypts and unpacks a backup into `stagingDir` (which must exist and be empty), then checks it
 * whole: every file the manifest names, and a database this version can take. Throws
 * BackupRejected saying why (wrong passphrase, damaged, cut off, not a backup, newer version);
 * nothing outside `stagingDir` is touched, so a failure changes nothing.
 */
export async function readBackup(
  source: Readable,
  passphrase: string,
  stagingDir: string,
  migrationsFolder?: string,
): Promise<StagedBackup> {
  const extract = tar.extract();
  let manifestText: string | undefined;
  const seen = new Set<string>();
  let unpacked = 0;
  extract.on('entry', (header, stream, next) => {
    // tar-stream destroys an entry it is told failed: listened to, so that is no crash.
    stream.on('error', () => undefined);
    const fail = (message: string) => {
      stream.resume();
      next(new BackupRejected(`The file is damaged: ${message}.`, 'damaged'));
    };
    if (header.type !== 'file' || !isSafeName(header.name) || seen.has(header.name))
      return fail(`it holds an unexpected entry (${header.name.slice(0, 200)})`);
    seen.add(header.name);
    const size = header.size ?? 0;
    const isSmall = header.name === BACKUP_MANIFEST_ENTRY || header.name.startsWith('keys/');
    if (isSmall && size > MAX_SMALL_ENTRY_BYTES) return fail(`its entry ${header.name} is far too big (${size} bytes)`);
    unpacked += size;
    if (unpacked > freeBytes(stagingDir))
      return fail(`it would unpack to more than the free disk space (${header.name} is ${size} bytes)`);
    if (header.name === BACKUP_MANIFEST_ENTRY) {
      const parts: Buffer[] = [];
      stream.on('data', (chunk: unknown) => void parts.push(chunk as Buffer));
      stream.on('end', () => {
        manifestText = Buffer.concat(parts).toString('utf8');
        next();
      });
      return undefined;
    }
    const target = path.join(stagingDir, header.name);
    try {
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    } catch {
      return fail(`its entry ${header.name} clashes with another`);
    }
    pipeline(stream, fs.createWriteStream(target, { flags: 'wx', mode: 0o600 })).then(
      () => next(),
      (err: unknown) =>
        next(rejectionOf(err) ?? new BackupRejected(`The file could not be unpacked: ${String(err)}.`, 'damaged')),
    );
    return undefined;
  });

  try {
    await pipeline(source, createDecryptStream(passphrase), extract);
  } catch (err) {
    const rejection = rejectionOf(err);
    if (rejection) throw rejection;
    if (err instanceof Error && /tar|header|unexpected end/i.test(err.message))
      throw new BackupRejected(`The file is damaged: ${err.message}.`, 'damaged');
    throw err;
  }

  let written: BackupManifest & { files?: unknown };
  try {
    written = JSON.parse(manifestText ?? '') as BackupManifest & { files?: unknown };
  } catch {
    throw new BackupRejected('The file is damaged: it has no readable manifest.', 'damaged');
  }
  if (!READABLE_BACKUP_FORMATS.includes(written.format))
    throw new BackupRejected(
      'The backup was made by a newer version of SignDesk; update SignDesk first.',
      'newer-version',
    );
  const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  const isNames = (value: unknown) => Array.isArray(value) && value.every((name) => typeof name === 'string');
  if (!isNames(written.keys) || (written.format === 1 ? !isNames(written.files) : !isCount(written.file_count)))
    throw new BackupRejected('The file is damaged: its manifest is not one SignDesk wrote.', 'damaged');
  const storedFiles = [...seen].filter((name) => name.startsWith('files/'));
  // Format 1 listed its stored files; format 2 counts them.
  const listed = written.format === 1 ? (written.files as string[]).map((name) => `files/${name}`) : [];
  const manifest = currentManifest(written);
  const missing = [BACKUP_DATABASE_ENTRY, ...manifest.keys.map((name) => `keys/${name}`), ...listed].filter(
    (name) => !seen.has(name),
  );
  if (missing.length > 0)
    throw new BackupRejected(`The file is damaged: it lacks ${missing.slice(0, 3).join(', ')}.`, 'damaged');
  if (storedFiles.length !== manifest.file_count)
    throw new BackupRejected(
      `The file is damaged: it holds ${storedFiles.length} stored files of the ${manifest.file_count} it was written with.`,
      'damaged',
    );
  const database = path.join(stagingDir, BACKUP_DATABASE_ENTRY);
  checkDatabaseFile(database, migrationsFolder);
  return { manifest, database, keysDir: path.join(stagingDir, 'keys'), filesDir: path.join(stagingDir, 'files') };
}
