// Module hooks for a checkout's worker threads, registered after tsx's (server/core/ts-worker.mjs):
// pdf.js is a few megabytes of plain JavaScript that tsx's loader would read through on every
// worker start (seconds on a busy machine); loaded as Node would load it, it takes a fraction
// of that. A built server's workers have no tsx and need none of this.
import { readFile } from 'node:fs/promises';

/** ES modules (`.mjs`) under these folders. */
const PLAIN = ['/node_modules/pdfjs-dist/'];

export async function load(url, context, nextLoad) {
  const isPlain = url.startsWith('file:') && url.endsWith('.mjs') && PLAIN.some((folder) => url.includes(folder));
  if (!isPlain) return nextLoad(url, context);
  return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
}
