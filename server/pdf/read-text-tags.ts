import { findTagsOnPage, type TextRun, type TextTag, type ViewTransform } from './find-text-tags';
import { loadPdfJs } from './load-pdfjs';

/** Every text tag (`{{signature:1}}` …) in a PDF's text, page by page; at most `maxTags`. */
export async function readTextTags(
  bytes: Uint8Array,
  maxTags: number,
): Promise<{ tags: TextTag[]; isTruncated: boolean }> {
  const { getDocument, VerbosityLevel } = (await loadPdfJs()).pdfjs;
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
        runs.push({
          str: item.str,
          transform: item.transform as number[],
          width: item.width,
          hasEOL: item.hasEOL,
          ascent: style?.ascent,
          descent: style?.descent,
        });
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
