import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A private folder inside DATA_DIR for work in progress (a database copy, a backup being
 * unpacked): on the same disk as the data, so it can be moved into place by renaming, and never
 * in a shared temp folder where the office's keys would sit readable.
 */
export function makeScratchDir(dataDir: string, label = 'work'): { dir: string; remove(): void } {
  const dir = path.join(dataDir, `.${label}-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
