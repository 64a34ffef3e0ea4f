import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { prepareTestTemplate, testBackend } from './helpers/databases';

const root = path.resolve(import.meta.dirname, '..');
const SOURCES = ['renderer', 'shared', 'vite.config.ts', 'vite.signing.config.ts', 'package.json'];
const BUILDS = [
  { config: 'vite.config.ts', index: 'dist/renderer/index.html' },
  { config: 'vite.signing.config.ts', index: 'dist/signing/index.html' },
];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/**
 * The browser tests drive the built admin UI and signing page, so `npm test` builds them first
 * (once, and only when a source is newer than the build), and a fresh clone passes with the
 * README's commands.
 */
export default async function globalSetup(): Promise<void> {
  await buildRenderer();
  // On PostgreSQL each test's database is a copy of one migrated once (test/helpers/databases.ts).
  if (testBackend() === 'postgres') await prepareTestTemplate();
}

async function buildRenderer(): Promise<void> {
  const sourceTime = Math.max(...SOURCES.map((entry) => newestMtime(path.join(root, entry))));
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    for (const target of BUILDS) {
      const index = path.join(root, target.index);
      if (fs.existsSync(index) && fs.statSync(index).mtimeMs > sourceTime) continue;
      await build({ configFile: path.join(root, target.config), mode: 'production', logLevel: 'warn' });
    }
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
