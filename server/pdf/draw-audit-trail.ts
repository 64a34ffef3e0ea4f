import type { PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import type { AuditLabels } from './audit-labels';
import { BADGE, BODY, DARK, INK, LABEL, LEADING, MARGIN, MONO, MUTED, PANEL, RULE } from './audit-style';
import { evidenceBlocks, timestampRow } from './draw-audit-evidence';
import { truncateToWidth, wrapText } from './fit-text';
import { formatAuditTime } from './format-audit-time';
import { renderable, widthOf, type SealFonts } from './seal-fonts';
import type { SignedPdfAudit, SignedPdfParty } from './signed-pdf-types';

const A4 = { width: 595.28, height: 841.89 };
const LETTER = { width: 612, height: 792 };
const LABEL_WIDTH = 128;
const ROW_GAP = 4.5;
const MAX_USER_AGENT_LINES = 6;
/** The box a party's mark is drawn in, at the right of its card. */
const MARK_BOX = { width: 150, height: 46 };

export type AuditTrailContext = {
  doc: PDFDocument;
  fonts: SealFonts;
  labels: AuditLabels;
  audit: SignedPdfAudit;
  originalPageCount: number;
  seal: { subject: string; fingerprintSha256: string };
  /** Whether the original's bytes stay the prefix of the file (false for a rewritten damaged original). */
  isOriginalPrefix: boolean;
  /** Each party's mark, ready to draw (in the order of audit.parties); none for approvers and viewers. */
  marks?: ReadonlyArray<AuditMark | undefined>;
};

/** A mark on the audit trail: the embedded picture, or the typed name in its face. */
export type AuditMark = { image: PDFImage } | { font: PDFFont; text: string };

type Row = { label: string; lines: string[]; font: PDFFont; size: number };
/**
 * A piece of the layout: its height, and how to draw it with its top at `top`. A block that
 * keeps with the previous one never starts a page alone: the previous block moves along.
 */
export type Block = { height: number; draw: (page: PDFPage, top: number) => void; keepWithPrevious?: boolean };

/**
 * Appends the audit trail: the document, one card per party, the attachments, the events and
 * the chain head, flowing onto as many pages as it needs.
 */
export function drawAuditTrail(context: AuditTrailContext): PDFPage[] {
  const { doc } = context;
  const size = pageSizeFor(doc);
  const contentWidth = size.width - 2 * MARGIN;
  const blocks = [
    headerBlock(context, contentWidth),
    documentBlock(context, contentWidth),
    partiesHeading(context, contentWidth),
  ];
  context.audit.parties.forEach((party, index) =>
    blocks.push(partyBlock(context, party, contentWidth, context.marks?.[index])),
  );
  blocks.push(...evidenceBlocks(context, contentWidth));
  blocks.push({ ...sealNote(context, contentWidth), keepWithPrevious: true });

  const pagesOfBlocks = paginate(blocks, size.height - 2 * MARGIN - 36);

  return pagesOfBlocks.map((pageBlocks, index) => {
    const page = doc.addPage([size.width, size.height]);
    page.drawRectangle({ x: 0, y: size.height - 6, width: size.width, height: 6, color: INK });
    let top = size.height - MARGIN;
    for (const block of pageBlocks) {
      block.draw(page, top);
      top -= block.height;
    }
    drawFooter(context, page, size.width, index + 1, pagesOfBlocks.length);
    return page;
  });
}

/** Blocks into pages; a block kept with the previous one takes that one along to a new page (review: no page holding only the closing note). */
function paginate(blocks: Block[], pageRoom: number): Block[][] {
  const pages: Block[][] = [[]];
  let room = pageRoom;
  for (const block of blocks) {
    const current = pages.at(-1)!;
    if (block.height <= room || current.length === 0) {
      current.push(block);
      room -= block.height;
      continue;
    }
    const carried = block.keepWithPrevious && current.length > 1 ? [current.pop()!] : [];
    pages.push([...carried, block]);
    room = pageRoom - carried.reduce((sum, item) => sum + item.height, 0) - block.height;
  }
  return pages;
}

/** A4, unless the contract itself is on US Letter. */
function pageSizeFor(doc: PDFDocument): { width: number; height: number } {
  const first = doc.getPage(0).getSize();
  const isLetter = Math.abs(first.width - LETTER.width) < 3 && Math.abs(first.height - LETTER.height) < 3;
  return isLetter ? LETTER : A4;
}

function headerBlock({ fonts, labels }: AuditTrailContext, width: number): Block {
  return {
    height: 70,
    draw: (page, top) => {
      page.drawText('S I G N D E S K', { x: MARGIN, y: top - 10, size: 8, font: fonts.bold, color: INK });
      page.drawText(labels.title, { x: MARGIN, y: top - 34, size: 20, font: fonts.bold, color: DARK });
      page.drawText(labels.subtitle, { x: MARGIN, y: top - 50, size: 10, font: fonts.regular, color: MUTED });
      page.drawLine({
        start: { x: MARGIN, y: top - 60 },
        end: { x: MARGIN + width, y: top - 60 },
        thickness: 0.8,
        color: RULE,
      });
    },
  };
}

function documentBlock(context: AuditTrailContext, width: number): Block {
  const { fonts, labels, audit } = context;
  const valueWidth = width - LABEL_WIDTH - 24;
  const rows = [
    textRow(fonts.bold, labels.document, audit.documentName, valueWidth),
    textRow(fonts.regular, labels.contract, String(audit.contractId), valueWidth),
    monoRow(fonts.mono, labels.documentSha256, audit.documentSha256.toLowerCase(), valueWidth),
    textRow(fonts.regular, labels.pages, String(context.originalPageCount), valueWidth),
    textRow(
      fonts.regular,
      labels.completed,
      formatAuditTime(audit.completedTime, audit.timeZone) ?? labels.notYet,
      valueWidth,
    ),
    textRow(fonts.regular, labels.sealedBy, context.seal.subject, valueWidth),
    monoRow(
      fonts.mono,
      labels.sealFingerprint,
      context.seal.fingerprintSha256.replaceAll(':', '').toLowerCase(),
      valueWidth,
    ),
    ...timestampRow(context, valueWidth).map((row) => textRow(fonts.regular, row.label, row.value, valueWidth)),
  ];
  const rowsHeight = heightOf(rows);
  const panelHeight = rowsHeight + 24;
  const note = renderable(fonts.regular, labels.timesIn(audit.timeZone));
  return {
    height: panelHeight + 30,
    draw: (page, top) => {
      page.drawRectangle({ x: MARGIN, y: top - panelHeight, width, height: panelHeight, color: PANEL });
      drawRows(page, rows, MARGIN + 12, top - 12, fonts.regular);
      page.drawText(note, { x: MARGIN, y: top - panelHeight - 14, size: 8, font: fonts.regular, color: MUTED });
    },
  };
}

function partiesHeading({ fonts, labels, audit }: AuditTrailContext, width: number): Block {
  return {
    height: 30,
    draw: (page, top) => {
      page.drawText(`${labels.parties} (${audit.parties.length})`, {
        x: MARGIN,
        y: top - 14,
        size: 12.5,
        font: fonts.bold,
        color: DARK,
      });
      page.drawLine({
        start: { x: MARGIN, y: top - 21 },
        end: { x: MARGIN + width, y: top - 21 },
        thickness: 0.6,
        color: RULE,
      });
    },
  };
}

function partyBlock(
  context: AuditTrailContext,
  party: SignedPdfParty,
  width: number,
  mark: AuditMark | undefined,
): Block {
  const { fonts, labels, audit } = context;
  // With a mark, the values make room for it on the right.
  const valueWidth = width - LABEL_WIDTH - 24 - (mark ? MARK_BOX.width + 12 : 0);
  const time = (value: SignedPdfParty['sentTime']) => formatAuditTime(value, audit.timeZone) ?? labels.notYet;
  const userAgentLines = wrapText(
    fonts.regular,
    renderable(fonts.regular, party.userAgent || labels.notYet),
    BODY,
    valueWidth,
  );
  const rows: Row[] = [
    ...(party.signatureName ? [textRow(fonts.regular, labels.signedAs, party.signatureName, valueWidth)] : []),
    textRow(fonts.regular, labels.contact, party.contact || labels.notYet, valueWidth),
    ...(party.identityNumber ? [textRow(fonts.regular, labels.identityNumber, party.identityNumber, valueWidth)] : []),
    textRow(
      fonts.regular,
      labels.authentication,
      labels.authentications[party.authentication] ?? party.authentication,
      valueWidth,
    ),
    textRow(fonts.regular, labels.ipAddress, party.ipAddress || labels.notYet, valueWidth),
    {
      label: labels.userAgent,
      lines: capLines(fonts.regular, userAgentLines, valueWidth),
      font: fonts.regular,
      size: BODY,
    },
    textRow(fonts.regular, labels.sent, time(party.sentTime), valueWidth),
    textRow(fonts.regular, labels.opened, time(party.openedTime), valueWidth),
    textRow(fonts.regular, labels.signed, time(party.signedTime), valueWidth),
  ];
  const role = renderable(fonts.bold, labels.roles[party.signType] ?? party.signType);
  const name = truncateToWidth(fonts.bold, renderable(fonts.bold, party.name), 12, width - 140);
  const cardHeight = Math.max(30 + heightOf(rows) + 8, mark ? 30 + MARK_BOX.height + 8 : 0);
  return {
    height: cardHeight + 12,
    draw: (page, top) => {
      page.drawRectangle({ x: MARGIN, y: top - cardHeight, width: 2.2, height: cardHeight, color: INK });
      page.drawText(name, { x: MARGIN + 12, y: top - 16, size: 12, font: fonts.bold, color: DARK });
      const roleWidth = widthOf(fonts.bold, role, 7.5) + 14;
      page.drawRectangle({ x: MARGIN + width - roleWidth, y: top - 19, width: roleWidth, height: 15, color: BADGE });
      page.drawText(role, {
        x: MARGIN + width - roleWidth + 7,
        y: top - 14.5,
        size: 7.5,
        font: fonts.bold,
        color: INK,
      });
      drawRows(page, rows, MARGIN + 12, top - 30, fonts.regular);
      if (mark) drawMark(page, mark, MARGIN + width - MARK_BOX.width, top - 30 - MARK_BOX.height);
      page.drawLine({
        start: { x: MARGIN + 12, y: top - cardHeight - 6 },
        end: { x: MARGIN + width, y: top - cardHeight - 6 },
        thickness: 0.4,
        color: RULE,
      });
    },
  };
}

/** The mark in its box (bottom-left at x, y) as large as fits, over a thin signing line. */
function drawMark(page: PDFPage, mark: AuditMark, x: number, y: number): void {
  const { width, height } = MARK_BOX;
  page.drawLine({ start: { x, y: y + 4 }, end: { x: x + width, y: y + 4 }, thickness: 0.5, color: RULE });
  if ('image' in mark) {
    const scale = Math.min(width / mark.image.width, (height - 6) / mark.image.height);
    page.drawImage(mark.image, {
      x: x + (width - mark.image.width * scale) / 2,
      y: y + 6,
      width: mark.image.width * scale,
      height: mark.image.height * scale,
    });
    return;
  }
  const text = renderable(mark.font, mark.text);
  const size = Math.min(24, (width / Math.max(1, widthOf(mark.font, text, 1))) * 0.95);
  page.drawText(text, {
    x: x + (width - widthOf(mark.font, text, size)) / 2,
    y: y + 9,
    size,
    font: mark.font,
    color: INK,
  });
}

function sealNote({ fonts, labels, isOriginalPrefix }: AuditTrailContext, width: number): Block {
  const lines = wrapText(fonts.regular, isOriginalPrefix ? labels.seal : labels.sealRewritten, 8.5, width - 24);
  const height = lines.length * 8.5 * LEADING + 20;
  return {
    height: height + 14,
    draw: (page, top) => {
      const y = top - 8;
      page.drawRectangle({ x: MARGIN, y: y - height, width, height, borderColor: RULE, borderWidth: 0.6 });
      lines.forEach((line, index) =>
        page.drawText(line, {
          x: MARGIN + 12,
          y: y - 16 - index * 8.5 * LEADING,
          size: 8.5,
          font: fonts.regular,
          color: MUTED,
        }),
      );
    },
  };
}

function drawFooter(
  { fonts, labels, audit }: AuditTrailContext,
  page: PDFPage,
  pageWidth: number,
  index: number,
  count: number,
): void {
  const left = truncateToWidth(
    fonts.regular,
    renderable(fonts.regular, audit.documentName),
    7.5,
    pageWidth - 2 * MARGIN - 160,
  );
  const right = labels.pageOf(index, count);
  page.drawLine({
    start: { x: MARGIN, y: MARGIN - 8 },
    end: { x: pageWidth - MARGIN, y: MARGIN - 8 },
    thickness: 0.5,
    color: RULE,
  });
  page.drawText(left, { x: MARGIN, y: MARGIN - 20, size: 7.5, font: fonts.regular, color: MUTED });
  page.drawText(right, {
    x: pageWidth - MARGIN - widthOf(fonts.regular, right, 7.5),
    y: MARGIN - 20,
    size: 7.5,
    font: fonts.regular,
    color: MUTED,
  });
}

function textRow(font: PDFFont, label: string, value: string, width: number): Row {
  return { label, lines: wrapText(font, renderable(font, value), BODY, width), font, size: BODY };
}

function monoRow(font: PDFFont, label: string, value: string, width: number): Row {
  return { label, lines: wrapText(font, value.replace(/[^\x20-\x7e]/g, '?'), MONO, width), font, size: MONO };
}

function capLines(font: PDFFont, lines: string[], width: number): string[] {
  if (lines.length <= MAX_USER_AGENT_LINES) return lines;
  const kept = lines.slice(0, MAX_USER_AGENT_LINES);
  kept[kept.length - 1] = truncateToWidth(font, `${kept.at(-1)}…`, BODY, width);
  return kept;
}

function heightOf(rows: Row[]): number {
  return rows.reduce((sum, row) => sum + Math.max(1, row.lines.length) * BODY * LEADING + ROW_GAP, 0) - ROW_GAP;
}

function drawRows(page: PDFPage, rows: Row[], x: number, top: number, labelFont: PDFFont): void {
  let y = top;
  for (const row of rows) {
    const baseline = y - BODY;
    page.drawText(renderable(labelFont, row.label), { x, y: baseline, size: LABEL, font: labelFont, color: MUTED });
    row.lines.forEach((line, index) =>
      page.drawText(line, {
        x: x + LABEL_WIDTH,
        y: baseline - index * BODY * LEADING,
        size: row.size,
        font: row.font,
        color: DARK,
      }),
    );
    y -= Math.max(1, row.lines.length) * BODY * LEADING + ROW_GAP;
  }
}
