import { createRequire } from 'node:module';
import path from 'node:path';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const require = createRequire(import.meta.url);
let loaded: Promise<{ pdfjs: PdfJs; dataDir: string }> | undefined;

/**
 * pdf.js for Node (its legacy build, minified: a third of the parse time), loaded once per PDF
 * sandbox worker, when a task first reads with it (a worker that only inspects uploads never
 * does). Its own worker runs in this thread ("fake worker"): handing it the worker module up
 * front keeps pdf.js from importing a file by URL. `dataDir` is the package's folder, whose
 * fonts, CMaps and wasm pdf.js reads to draw pages. A checkout's worker loads pdfjs-dist past
 * tsx's loader (server/core/plain-modules.mjs).
 */
export function loadPdfJs(): Promise<{ pdfjs: PdfJs; dataDir: string }> {
  loaded ??= (async () => {
    const dataDir = path.dirname(require.resolve('pdfjs-dist/package.json'));
    const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.min.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    const pdfjs = (await import('pdfjs-dist/legacy/build/pdf.min.mjs')) as PdfJs;
    return { pdfjs, dataDir };
  })();
  return loaded;
}
