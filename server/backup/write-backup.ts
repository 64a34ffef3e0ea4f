import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, type Writable } from 'node:stream';
import tar from 'tar-stream';
import type { AppContext } from '../context/app-context';
import { createEncryptStream, type KdfLimits } from '../crypto/backup-cipher';
import type { KeyStore } from '../crypto/key-store';
import { backupDatabase, claimedFilesOf, claimedHashesOf } from '../db/backup';
import { APP_VERSION } from '../core/version';
import { StoredFileMissing } from '../db/stored-file-missing';
import { BACKUP_DATABASE_ENTRY, BACKUP_FORMAT, BACKUP_MANIFEST_ENTRY, type BackupManifest } from './backup-manifest';
import { makeScratchDir } from './scratch-dir';

/** Every regular file under `dir`, as paths relative to it (sorted, so archives are reproducible in order). */
export function listFiles(dir: string): string[] {
  return [...walkFiles(dir)];
}

/** listFiles one folder at a time: an office's hundred thousand uploads are never one list in memory. */
function* walkFiles(dir: string, relative = ''): Generator<string> {
  if (!fs.existsSync(path.join(dir, relative))) return;
  const entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) yield* walkFiles(dir, child);
    else if (entry.isFile()) yield child;
  }
}

/** One file into the archive: exactly the bytes it had when listed (a file that grows meanwhile is not read on for ever). */
async function addFile(pack: tar.Pack, name: string, file: string, mode: number, signal?: AbortSignal): Promise<void> {
  const { size } = fs.statSync(file);
  if (size === 0) return void pack.entry({ name, size, mode, mtime: new Date(0) }, Buffer.alloc(0));
  const entry = pack.entry({ name, size, mode, mtime: new Date(0) });
  await pipeline(fs.createReadStream(file, { start: 0, end: size - 1 }), entry, { signal });
}

export type WrittenBackup = { bytes: number; manifest: BackupManifest };

/** Every key of the store with its bytes (a few small files; a key gone meanwhile is left out). */
async function readKeys(keys: KeyStore): Promise<Array<{ name: string; bytes: Buffer }>> {
  const found: Array<{ name: string; bytes: Buffer }> = [];
  for (const name of await keys.list()) {
    const bytes = await keys.read(name);
    if (bytes) found.push({ name, bytes });
  }
  return found;
}

/**
 * Writes the whole office into `destination` as one encrypted file: a consistent copy of the
 * database (SQLite's online backup; requests go on meanwhile, and the settings are in it), every
 * key of the key store (whatever lives there: webhook seal key, seal certificate and key, the
 * appliance secret, ...; in clear inside the envelope, as `keys/<name>` whichever backend holds
 * them) and every file of DATA_DIR/files, in a tar archive inside the encrypted envelope,
 * then the manifest. Streams: a file of hundreds of MB never sits in memory. Of DATA_DIR/files it
 * takes the files the database copy names: files are only removed at a start (the unclaimed
 * ones), so each is there when the folder is walked after the copy; one uploaded since is not.
 */
export async function writeBackup(
  ctx: AppContext,
  passphrase: string,
  destination: Writable,
  limits?: KdfLimits,
  signal?: AbortSignal,
  /** Called once the database copy is made, before the first byte goes out (a download sets its headers here). */
  onCopied?: () => void,
): Promise<WrittenBackup> {
  const scratch = makeScratchDir(ctx.paths.root);
  try {
    const database = path.join(scratch.dir, 'signdesk.sqlite');
    await backupDatabase(ctx.db, database);
    onCopied?.();
    const keys = await readKeys(ctx.keys);
    const office = await ctx.repos.office.get(ctx.now());
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      app_version: APP_VERSION,
      created_time: ctx.timestamp(ctx.now()),
      time_zone: ctx.config.timeZone,
      office_name: office.name,
      keys: keys.map((key) => key.name),
      file_count: 0,
    };
    const pack = tar.pack();
    let bytes = 0;
    const counted = pipeline(
      pack,
      createEncryptStream(passphrase, limits),
      async function* count(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          bytes += chunk.length;
          yield chunk;
        }
      },
      destination,
      ...(signal ? [{ signal }] : []),
    );
    const filled = (async () => {
      await addFile(pack, BACKUP_DATABASE_ENTRY, database, 0o600, signal);
      for (const { name, bytes } of keys)
        pack.entry({ name: `keys/${name}`, size: bytes.length, mode: 0o600, mtime: new Date(0) }, bytes);
      if (ctx.db.dialect === 'postgres') {
        // PostgreSQL keeps the files itself: those the copy names, read through the file store. One
        // someone took away is left out, as on SQLite, and the restore drill names it.
        for (const sha256 of claimedHashesOf(database)) {
          const bytes = await ctx.files.read(sha256).catch((error: unknown) => {
            if (error instanceof StoredFileMissing) return undefined;
            throw error;
          });
          if (!bytes) continue;
          const entry = pack.entry({
            name: `files/${sha256.slice(0, 2)}/${sha256}`,
            size: bytes.length,
            mode: 0o600,
            mtime: new Date(0),
          });
          await pipeline(Readable.from([bytes]), entry, { signal });
          manifest.file_count += 1;
        }
      }
      const claimed = claimedFilesOf(database);
      try {
        for (const name of ctx.db.dialect === 'postgres' ? [] : walkFiles(ctx.paths.files)) {
          if (!claimed.has(path.basename(name))) continue;
          await addFile(pack, `files/${name}`, path.join(ctx.paths.files, name), 0o600, signal);
          manifest.file_count += 1;
        }
      } finally {
        claimed.close();
      }
      const json = Buffer.from(JSON.stringify(manifest, null, 2));
      pack.entry({ name: BACKUP_MANIFEST_ENTRY, size: json.length, mtime: new Date(0) }, json);
      pack.finalize();
    })();
    // Either side may fail first (a full disk, a closed connection): fail as one.
    filled.catch((err: unknown) => pack.destroy(err as Error));
    await Promise.all([counted, filled]);
    return { bytes, manifest };
  } finally {
    scratch.remove();
  }
}
