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

/** Ours: makeScratchDir's, and the incoming folder of uploads (server/db/file-store.ts). */
const SCRATCH_NAME = /^\.(work|restore|drill|incoming)-[0-9a-f]{12}$/;

/**
 * Scratch folders a crash left behind (a database copy, decrypted keys): removed by whoever
 * takes DATA_DIR's lock, since no other process can be using them then.
 */
export function removeStaleScratch(dataDir: string): string[] {
  const removed: string[] = [];
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !SCRATCH_NAME.test(entry.name)) continue;
    fs.rmSync(path.join(dataDir, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
