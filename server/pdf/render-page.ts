import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { loadPdfJs } from './load-pdfjs';
import { coverOf, type TagCoverBox } from './tag-cover';

type Canvas = typeof import('@napi-rs/canvas');

export type RenderPageInput = {
  /** The document's SHA-256: parsed documents are kept per worker under it. */
  key: string;
  bytes: Uint8Array;
  /** 1-based. */
  page: number;
  /** Pixels across the page as displayed. */
  width: number;
  /** Text tags of this page painted over in white, as in the sealed PDF (tag-cover.ts). */
  covers?: TagCoverBox[];
};

export type RenderedPage = { image: Uint8Array; contentType: 'image/webp'; width: number; height: number };

/** WebP at this quality keeps 9 pt text sharp at phone widths for about a third of a PNG's bytes. */
const WEBP_QUALITY = 76;
/** A bound on one page's canvas: a very tall page is drawn smaller rather than at any cost. */
const MAX_PIXELS = 12_000_000;
/** Larger images in a PDF are left out of the picture (pdf.js's own limit, in pixels). */
const MAX_IMAGE_PIXELS = 50_000_000;
const KEPT_DOCUMENTS = 3;

const require = createRequire(import.meta.url);
let canvasModule: Canvas | undefined;

/** The Skia canvas pdf.js draws on, loaded on the first page drawn. */
function loadCanvas(): Canvas {
  canvasModule ??= require('@napi-rs/canvas') as Canvas;
  return canvasModule;
}

const documents = new Map<string, Promise<PDFDocumentProxy>>();

async function openDocument(input: RenderPageInput): Promise<PDFDocumentProxy> {
  let opened = documents.get(input.key);
  if (opened) {
    // Most recently used last.
    documents.delete(input.key);
    documents.set(input.key, opened);
    return opened;
  }
  const { pdfjs, dataDir } = await loadPdfJs();
  const folder = (name: string) => `${path.join(dataDir, name)}${path.sep}`;
  opened = pdfjs.getDocument({
    // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
    data: new Uint8Array(input.bytes),
    standardFontDataUrl: folder('standard_fonts'),
    cMapUrl: folder('cmaps'),
    wasmUrl: folder('wasm'),
    iccUrl: folder('iccs'),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    maxImageSize: MAX_IMAGE_PIXELS,
    verbosity: 0,
  }).promise;
  documents.set(input.key, opened);
  opened.catch(() => documents.delete(input.key));
  while (documents.size > KEPT_DOCUMENTS) {
    const [oldest, evicted] = documents.entries().next().value as [string, Promise<PDFDocumentProxy>];
    documents.delete(oldest);
    void evicted.then((doc) => doc.destroy()).catch(() => undefined);
  }
  return opened;
}

/** One page of a PDF drawn on a white canvas `width` pixels across, its text tags painted over, as WebP. */
export async function renderPage(input: RenderPageInput): Promise<RenderedPage> {
  const canvas = loadCanvas();
  const doc = await openDocument(input);
  if (!Number.isInteger(input.page) || input.page < 1 || input.page > doc.numPages)
    throw new RangeError(`The document has no page ${input.page}.`);
  const page = await doc.getPage(input.page);
  try {
    const natural = page.getViewport({ scale: 1 });
    let scale = input.width / natural.width;
    if (natural.width * natural.height * scale * scale > MAX_PIXELS)
      scale = Math.sqrt(MAX_PIXELS / (natural.width * natural.height));
    const viewport = page.getViewport({ scale });
    const target = canvas.createCanvas(
      Math.max(1, Math.round(viewport.width)),
      Math.max(1, Math.round(viewport.height)),
    );
    const context = target.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, target.width, target.height);
    // pdf.js takes a DOM canvas; @napi-rs/canvas is the one it uses itself in Node.
    await page.render({ canvas: target, canvasContext: context, viewport } as unknown as Parameters<
      typeof page.render
    >[0]).promise;
    context.fillStyle = '#ffffff';
    for (const cover of input.covers ?? []) {
      const box = coverOf(cover);
      context.fillRect(box.x * scale, box.y * scale, box.width * scale, box.height * scale);
    }
    const image = await target.encode('webp', WEBP_QUALITY);
    return {
      image: new Uint8Array(image.buffer, image.byteOffset, image.byteLength),
      contentType: 'image/webp',
      width: target.width,
      height: target.height,
    };
  } finally {
    page.cleanup();
  }
}
