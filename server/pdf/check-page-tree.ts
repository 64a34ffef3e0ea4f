import { PDFArray, PDFDict, PDFName, PDFPageLeaf, PDFPageTree, type PDFDocument } from 'pdf-lib';
import { PdfReadError } from './pdf-read-error';

/** Real page trees are a few levels deep; a balanced tree of 1,000 pages needs three. */
export const MAX_PAGE_TREE_DEPTH = 32;

/**
 * Walks the page tree once, before pdf-lib does, and refuses what would make its walk explode
 * or never end: a node reached twice (the same child listed twice, or a loop: a few KB can
 * name a billion pages that way), a tree deeper than MAX_PAGE_TREE_DEPTH, more than
 * `maxPages` pages. Each node is visited at most once, so the walk is linear in the file.
 */
export function checkPageTree(doc: PDFDocument, maxPages: number): void {
  const { context, catalog } = doc as { context: PDFDocument['context']; catalog: PDFDocument['catalog'] | undefined };
  if (!(catalog instanceof PDFDict))
    throw new PdfReadError('damaged', 'The PDF has no document catalog: it is damaged and cannot be read.');
  const seen = new Set<PDFDict>();
  const root = catalog.lookup(PDFName.of('Pages'));
  const stack: Array<{ node: unknown; depth: number }> = [{ node: root, depth: 1 }];
  let pages = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (!(node instanceof PDFDict)) continue;
    if (seen.has(node)) {
      throw new PdfReadError(
        'damaged',
        "The PDF's page tree lists the same page or branch more than once (or loops); it cannot be used.",
      );
    }
    seen.add(node);
    if (node instanceof PDFPageLeaf) {
      pages += 1;
      if (pages > maxPages)
        throw new PdfReadError(
          'too-many-pages',
          `The PDF has more than ${maxPages} pages; at most ${maxPages} can be signed.`,
        );
      continue;
    }
    if (!(node instanceof PDFPageTree)) continue;
    if (depth > MAX_PAGE_TREE_DEPTH) {
      throw new PdfReadError(
        'too-complex',
        `The PDF's page tree is nested more than ${MAX_PAGE_TREE_DEPTH} levels deep; it cannot be used.`,
      );
    }
    const kids = node.lookup(PDFName.of('Kids'));
    if (!(kids instanceof PDFArray)) continue;
    for (let index = kids.size() - 1; index >= 0; index -= 1)
      stack.push({ node: context.lookup(kids.get(index)), depth: depth + 1 });
  }
}
