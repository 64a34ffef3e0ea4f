import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { AppError } from '../core/errors';

/** The real path of `target`: its longest existing part through realpath (symlinks resolved), the rest as written. */
function realPathOf(target: string): string {
  const rest: string[] = [];
  let existing = path.resolve(target);
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return path.resolve(target);
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

const FOLDS_CASE = process.platform === 'win32' || process.platform === 'darwin';

function isInside(child: string, parent: string): boolean {
  const fold = (p: string) => (FOLDS_CASE ? p.toLowerCase() : p);
  const relative = path.relative(fold(parent), fold(child));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * A backup folder inside DATA_DIR would be backed up into itself (a scheduled backup into
 * `keys/` read its own growing file until the disk was full) and lost with the data it
 * protects: refused, both paths resolved through every symlink.
 */
export function assertOutsideDataDir(folder: string, dataDir: string): void {
  if (isInside(realPathOf(folder), realPathOf(dataDir))) {
    throw new AppError('validation-failed', 'The backup folder must lie outside the data folder.', {
      validationErrors: [
        `folder: ${folder} is inside SignDesk's data folder (${dataDir}); choose a folder elsewhere, best on another disk`,
      ],
    });
  }
}

/**
 * A new file in `folder` for a backup being written: an unpredictable name, created exclusively
 * and never through a symlink (O_EXCL | O_NOFOLLOW), so nothing planted in a shared folder can
 * make the appliance write elsewhere. `finish()` gives it its final name, never replacing one.
 * `nonce` is the name's random part (a test names it, to plant a link where the file will go).
 */
export function createPartialFile(
  finalFile: string,
  nonce = randomBytes(9).toString('hex'),
): {
  path: string;
  stream: Writable;
  finish(): void;
  discard(): void;
} {
  const partial = path.join(path.dirname(finalFile), `.${path.basename(finalFile)}.${nonce}.partial`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(partial, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
  const stream = fs.createWriteStream(partial, { fd });
  return {
    path: partial,
    stream,
    finish() {
      // A hard link fails where the name exists (a symlink planted there included): nothing is replaced.
      try {
        fs.linkSync(partial, finalFile);
        fs.rmSync(partial);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST')
          throw new Error(`${finalFile} appeared while the backup was written; it was left alone`, { cause: err });
        // File systems without hard links (some network shares): a rename, the name checked just before.
        if (fs.existsSync(finalFile) || isSymlink(finalFile)) throw err;
        fs.renameSync(partial, finalFile);
      }
    },
    discard() {
      stream.destroy();
      fs.rmSync(partial, { force: true });
    },
  };
}

export function isSymlink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
