import fs from 'node:fs';
import path from 'node:path';

/**
 * Creates a key file in DATA_DIR/keys once, whole or not at all: the bytes go to a temporary
 * file (mode 600) that is synced and then linked into place, so a full disk or a crash leaves
 * no empty or short key behind, and of two processes starting at once the first one's key
 * wins. Returns the key in the file (ours or the winner's).
 */
export function createKeyFileOnce(file: string, fresh: Buffer): Buffer {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = fs.openSync(temporary, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, fresh);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return fs.readFileSync(file);
}
