import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The server's worker-thread entries, each a TypeScript file of its own. `npm run build` bundles
 * each into dist/server/workers/<name>.cjs (scripts/build.ts); a checkout runs the source.
 */
export const WORKER_ENTRIES = {
  'pdf-sandbox': 'pdf/sandbox/worker.ts',
  checkpointer: 'db/checkpoint-worker.ts',
  'contract-search': 'db/search-worker.ts',
  'restore-drill': 'db/drill-worker.ts',
} as const;

export type WorkerEntryName = keyof typeof WORKER_ENTRIES;

// This file's folder: server/core in a checkout, dist/server in the bundled host.
const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * Starts a worker thread on one of our entries: the bundle's compiled copy when there is one
 * (the built server and the desktop app), else the TypeScript source through tsx's loader
 * (`npm run server` from a checkout, the tests). `workerData` reaches the entry unchanged.
 */
export function startWorkerThread(name: WorkerEntryName, options: WorkerOptions = {}): Worker {
  const bundled = path.join(HERE, 'workers', `${name}.cjs`);
  if (fs.existsSync(bundled)) return new Worker(bundled, options);
  const entryUrl = pathToFileURL(path.join(HERE, '..', WORKER_ENTRIES[name])).href;
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    ...options,
    workerData: { ...options.workerData, entryUrl },
  });
}
