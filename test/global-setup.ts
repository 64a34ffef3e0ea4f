import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['renderer', 'shared', 'vite.config.ts', 'package.json'];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/**
 * The browser tests drive the built admin UI, so `npm test` builds it first (once, and only
 * when a source is newer than the build), and a fresh clone passes with the README's commands.
 */
export default async function buildRenderer(): Promise<void> {
  const index = path.join(root, 'dist/renderer/index.html');
  const sourceTime = Math.max(...SOURCES.map((entry) => newestMtime(path.join(root, entry))));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs > sourceTime) return;
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' });
}
