import { PDFDocument, rgb, StandardFonts, type PDFPage } from 'pdf-lib';
import { fontOf, makeSanitizer, widthOfLine, wrapRuns, type Fonts, type TextLine } from './layout-text';
import { parseMarkdown, type Block, type Run } from './parse-markdown';
import type { PageSize } from './pdf-read-error';
import type { Language } from '../../shared/api/enums';
import { translatorFor } from '../../shared/i18n/catalogues';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';

export type ContractPdfSource = {
  title: string;
  header: string;
  content: string;
  footer: string;
  /** SIMPLE: footer text and page numbers; NONE: no footer. */
  footerType: 'SIMPLE' | 'NONE';
  language: Language;
};

const A4: PageSize = [595.28, 841.89];
const MARGIN = 56.7;
const BODY_SIZE = 11;
const SMALL_SIZE = 9;
const LEADING = 1.4;
const HEADING_SIZES = { 1: 18, 2: 14, 3: 12.5 } as const;
const INDENT = 18;
const INK = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.38, 0.38, 0.38);
/**
 * "Page n of m" in the contract's language. The standard fonts write WinAnsi only: a language
 * they cannot write (Arabic) numbers its pages "n / m" rather than print question marks.
 */
function pageLabeller(language: Language, sanitize: (text: string) => string): (page: number, of: number) => string {
  const t = translatorFor(language, 'document');
  const sample = t('pageOf', { page: 1, pages: 2 });
  if (sanitize(sample) !== sample) return (page, of) => `${page} / ${of}`;
  return (page, of) => t('pageOf', { page, pages: of });
}

/** The text lays out to more pages than allowed; raised before any page is drawn. */
export class TooManyPagesError extends Error {
  readonly pageCount: number;
  constructor(pageCount: number) {
    super(`The text renders to ${pageCount} pages.`);
    this.name = 'TooManyPagesError';
    this.pageCount = pageCount;
  }
}

/** One laid-out line of the body: where it starts, how big, and how much room it wants above. */
type Placed = {
  line: TextLine;
  size: number;
  x: number;
  spaceBefore: number;
  marker?: string;
  isRule?: boolean;
  keepWithNext?: boolean;
};

function sanitizeRuns(runs: readonly Run[], sanitize: (text: string) => string): Run[] {
  return runs.map((run) => ({ ...run, text: sanitize(run.text) }));
}

function layoutBlocks(
  blocks: readonly Block[],
  fonts: Fonts,
  width: number,
  sanitize: (text: string) => string,
): Placed[] {
  const placed: Placed[] = [];
  let previous: Block['kind'] | undefined;
  for (const block of blocks) {
    if (block.kind === 'rule') {
      placed.push({ line: [], size: BODY_SIZE, x: 0, spaceBefore: 8, isRule: true });
      previous = block.kind;
      continue;
    }
    const runs = sanitizeRuns(block.runs, sanitize);
    if (block.kind === 'heading') {
      const size = HEADING_SIZES[block.level];
      const lines = wrapRuns(
        runs.map((run) => ({ ...run, isBold: true })),
        fonts,
        size,
        width,
      );
      lines.forEach((line, index) => {
        placed.push({ line, size, x: 0, spaceBefore: index === 0 ? size * 0.8 : 0, keepWithNext: true });
      });
    } else if (block.kind === 'item') {
      const x = block.depth * INDENT + INDENT;
      const lines = wrapRuns(runs, fonts, BODY_SIZE, width - x);
      const spaceBefore = previous === 'item' ? 2 : 7;
      lines.forEach((line, index) => {
        placed.push({
          line,
          size: BODY_SIZE,
          x,
          spaceBefore: index === 0 ? spaceBefore : 0,
          ...(index === 0 ? { marker: sanitize(block.marker) } : {}),
        });
      });
    } else {
      wrapRuns(runs, fonts, BODY_SIZE, width).forEach((line, index) => {
        placed.push({ line, size: BODY_SIZE, x: 0, spaceBefore: index === 0 ? 7 : 0 });
      });
    }
    previous = block.kind;
  }
  return placed;
}

function drawLine(page: PDFPage, line: TextLine, x: number, baseline: number, size: number, color = INK): void {
  let cursor = x;
  for (const segment of line) {
    page.drawText(segment.text, { x: cursor, y: baseline, size, font: segment.font, color });
    cursor += segment.font.widthOfTextAtSize(segment.text, size);
  }
}

/** Splits the laid-out body into pages of `height` points; a heading never ends a page. */
function paginate(placed: readonly Placed[], height: number): Placed[][] {
  const pages: Placed[][] = [[]];
  let used = 0;
  placed.forEach((item, index) => {
    const onFreshPage = (pages.at(-1) as Placed[]).length === 0;
    const need = (onFreshPage ? 0 : item.spaceBefore) + item.size * LEADING;
    const next = placed[index + 1];
    const followerNeed = item.keepWithNext && next ? next.spaceBefore + next.size * LEADING : 0;
    if (!onFreshPage && used + need + followerNeed > height) {
      pages.push([]);
      used = 0;
    }
    const isFresh = (pages.at(-1) as Placed[]).length === 0;
    used += (isFresh ? 0 : item.spaceBefore) + item.size * LEADING;
    (pages.at(-1) as Placed[]).push(item);
  });
  return pages;
}

/** Renders a contract (or a template preview) from its light-Markdown header, content and footer. */
export async function renderContractPdf(
  source: ContractPdfSource,
  maxPages: number,
): Promise<{ bytes: Uint8Array; pageSizes: PageSize[] }> {
  const doc = await PDFDocument.create();
  doc.setTitle(source.title || 'Contract');
  doc.setLanguage(LANGUAGE_INFO[source.language].locale);
  doc.setProducer('SignDesk');
  doc.setCreator('SignDesk');
  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    boldItalic: await doc.embedFont(StandardFonts.HelveticaBoldOblique),
  };
  const sanitize = makeSanitizer(fonts.regular);
  const pageLabel = pageLabeller(source.language, sanitize);
  const [pageWidth, pageHeight] = A4;
  const width = pageWidth - 2 * MARGIN;
  const smallLines = (text: string, lineWidth: number) =>
    parseMarkdown(text).flatMap((block) =>
      block.kind === 'rule' ? [] : wrapRuns(sanitizeRuns(block.runs, sanitize), fonts, SMALL_SIZE, lineWidth),
    );

  const headerLines = smallLines(source.header, width);
  const hasFooter = source.footerType === 'SIMPLE';
  const labelRoom = fonts.regular.widthOfTextAtSize(pageLabel(9999, 9999), SMALL_SIZE) + 12;
  const footerLines = hasFooter ? smallLines(source.footer, width - labelRoom) : [];
  const headerHeight = headerLines.length > 0 ? headerLines.length * SMALL_SIZE * LEADING + 12 : 0;
  const footerHeight = hasFooter ? Math.max(1, footerLines.length) * SMALL_SIZE * LEADING + 12 : 0;
  const bodyTop = pageHeight - MARGIN - headerHeight;
  const bodyHeight = bodyTop - MARGIN - footerHeight;

  const pages = paginate(layoutBlocks(parseMarkdown(source.content), fonts, width, sanitize), bodyHeight);
  if (pages.length > maxPages) throw new TooManyPagesError(pages.length);
  pages.forEach((items, pageIndex) => {
    const page = doc.addPage(A4);
    let top = pageHeight - MARGIN;
    for (const line of headerLines) {
      drawLine(page, line, MARGIN, top - SMALL_SIZE, SMALL_SIZE, MUTED);
      top -= SMALL_SIZE * LEADING;
    }
    if (headerLines.length > 0) {
      page.drawLine({
        start: { x: MARGIN, y: top - 4 },
        end: { x: pageWidth - MARGIN, y: top - 4 },
        thickness: 0.5,
        color: MUTED,
      });
    }
    top = bodyTop;
    items.forEach((item, index) => {
      if (index > 0) top -= item.spaceBefore;
      const baseline = top - item.size;
      if (item.isRule) {
        const y = top - (item.size * LEADING) / 2;
        page.drawLine({ start: { x: MARGIN, y }, end: { x: pageWidth - MARGIN, y }, thickness: 0.5, color: MUTED });
      } else {
        if (item.marker) {
          const markerWidth = widthOfLine([{ text: item.marker, font: fonts.regular }], item.size);
          page.drawText(item.marker, {
            x: MARGIN + item.x - markerWidth - 5,
            y: baseline,
            size: item.size,
            font: fonts.regular,
            color: INK,
          });
        }
        drawLine(page, item.line, MARGIN + item.x, baseline, item.size);
      }
      top -= item.size * LEADING;
    });
    if (hasFooter) {
      let y = MARGIN + footerHeight - 12;
      page.drawLine({
        start: { x: MARGIN, y: y + 6 },
        end: { x: pageWidth - MARGIN, y: y + 6 },
        thickness: 0.5,
        color: MUTED,
      });
      const label = pageLabel(pageIndex + 1, pages.length);
      const labelWidth = fontOf(fonts, { isBold: false, isItalic: false }).widthOfTextAtSize(label, SMALL_SIZE);
      page.drawText(label, {
        x: pageWidth - MARGIN - labelWidth,
        y: y - SMALL_SIZE,
        size: SMALL_SIZE,
        font: fonts.regular,
        color: MUTED,
      });
      for (const line of footerLines) {
        drawLine(page, line, MARGIN, y - SMALL_SIZE, SMALL_SIZE, MUTED);
        y -= SMALL_SIZE * LEADING;
      }
    }
  });
  return { bytes: await doc.save(), pageSizes: pages.map(() => [pageWidth, pageHeight]) };
}
