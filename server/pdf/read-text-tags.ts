import path from 'node:path';
import { findTagsOnPage, type TagProblem, type TextTag } from './find-text-tags';
import { loadPdfJs } from './load-pdfjs';
import { placeGlyphs, type FontInfo } from './read-glyphs';

type Matrix = [number, number, number, number, number, number];

/**
 * Every text tag (`{{signature:1}}` …) in a PDF, page by page, at most `maxTags`, each placed
 * from its glyphs in the PDF's own fonts; and every `{{…}}` meant as a tag that is not a good
 * one. Only pages whose text has a `{{` are read glyph by glyph (pdf.js's operator list).
 */
export async function readTextTags(
  bytes: Uint8Array,
  maxTags: number,
): Promise<{ tags: TextTag[]; problems: TagProblem[]; isTruncated: boolean }> {
  const { pdfjs, dataDir } = await loadPdfJs();
  const folder = (name: string) => `${path.join(dataDir, name)}${path.sep}`;
  // pdf.js takes the buffer over; the caller's copy stays whole.
  const document = await pdfjs.getDocument({
    data: bytes.slice(),
    standardFontDataUrl: folder('standard_fonts'),
    cMapUrl: folder('cmaps'),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  }).promise;
  try {
    const tags: TextTag[] = [];
    const problems: TagProblem[] = [];
    const ops = pdfjs.OPS as unknown as Record<string, number>;
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      try {
        const content = await page.getTextContent();
        const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
        // Reading glyph by glyph costs a few times more than the text content: only pages that may hold a tag.
        if (!/\{\s*\{/.test(text)) continue;
        const view = page.getViewport({ scale: 1 }).transform as Matrix;
        const operators = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
        const fontOf = (name: string): FontInfo | undefined => {
          for (const objects of [page.commonObjs, page.objs] as const)
            if (objects.has(name)) return objects.get(name) as FontInfo;
          return undefined;
        };
        const found = findTagsOnPage(number, placeGlyphs(operators, ops, fontOf, view));
        tags.push(...found.tags);
        problems.push(...found.problems);
      } finally {
        page.cleanup();
      }
      if (tags.length > maxTags) return { tags: tags.slice(0, maxTags), problems, isTruncated: true };
    }
    return { tags, problems, isTruncated: false };
  } finally {
    await document.destroy();
  }
}
