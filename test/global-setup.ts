import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');

/** The web apps the server serves, each with what its build reads. */
const WEB_APPS = [
  { config: 'vite.config.ts', output: 'dist/renderer/index.html', sources: ['renderer', 'shared', 'vite.config.ts', 'package.json'] },
  { config: 'vite.signing.config.ts', output: 'dist/signing/index.html', sources: ['renderer/signing', 'shared', 'vite.signing.config.ts', 'package.json'] },
];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/**
 * The browser tests drive the built admin UI and signing page, and the desktop build test
 * packages them, so `npm test` builds them first (once, and only when a source is newer than
 * the build), and a fresh clone passes with the README's commands. Nothing else rebuilds them
 * during the run: tests read these folders side by side.
 */
export default async function buildWebApps(): Promise<void> {
  for (const app of WEB_APPS) {
    if (!fs.existsSync(path.join(root, app.config))) continue;
    const output = path.join(root, app.output);
    const sourceTime = Math.max(...app.sources.map((entry) => newestMtime(path.join(root, entry))));
    if (fs.existsSync(output) && fs.statSync(output).mtimeMs > sourceTime) continue;
    await build({ configFile: path.join(root, app.config), logLevel: 'warn' });
  }
}
