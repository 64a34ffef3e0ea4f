import { findTagsOnPage, type TextRun, type TextTag, type ViewTransform } from './find-text-tags';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js for Node (its legacy build), loaded once per worker thread. Its own worker runs in
 * this thread ("fake worker"): handing it the worker module up front keeps pdf.js from
 * importing a file by path, which a bundle would not have.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    // @ts-expect-error -- the worker module ships without type declarations; only its WorkerMessageHandler is used
    const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjs;
}

/** Every text tag (`{{signature:1}}` …) in a PDF's text, page by page; at most `maxTags`. */
export async function readTextTags(bytes: Uint8Array, maxTags: number): Promise<{ tags: TextTag[]; isTruncated: boolean }> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  // pdf.js takes the buffer over; the caller's copy stays whole.
  const document = await getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: VerbosityLevel.ERRORS,
  }).promise;
  try {
    const tags: TextTag[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const view = page.getViewport({ scale: 1 }).transform as ViewTransform;
      const content = await page.getTextContent();
      const runs: TextRun[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        const style = content.styles[item.fontName];
        runs.push({ str: item.str, transform: item.transform as number[], width: item.width, hasEOL: item.hasEOL, ascent: style?.ascent, descent: style?.descent });
      }
      tags.push(...findTagsOnPage(number, runs, view));
      page.cleanup();
      if (tags.length > maxTags) return { tags: tags.slice(0, maxTags), isTruncated: true };
    }
    return { tags, isTruncated: false };
  } finally {
    await document.destroy();
  }
}
