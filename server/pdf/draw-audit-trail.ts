import type { PDFDocument, PDFFont, PDFImage } from 'pdf-lib';
import { formatLocalTime } from '../../shared/i18n/languages';
import type { AuditLabels } from './audit-labels';
import { auditCanvas, type AuditCanvas, type AuditColors } from './audit-canvas';
import { BODY, DARK, LABEL, LEADING, MARGIN, MONO, MUTED, PANEL, RULE } from './audit-style';
import { evidenceBlocks, timestampRow } from './draw-audit-evidence';
import { formatAuditTime, type AuditTime } from './format-audit-time';
import { type SealFonts } from './seal-fonts';
import type { SignedPdfAudit, SignedPdfParty } from './signed-pdf-types';
import type { TextDirection, TextWriter } from './text-writer';

const A4 = { width: 595.28, height: 841.89 };
const LETTER = { width: 612, height: 792 };
const LABEL_WIDTH = 128;
const ROW_GAP = 4.5;
const MAX_USER_AGENT_LINES = 6;
/** The box a party's mark is drawn in, at the right of its card (the left, right to left). */
const MARK_BOX = { width: 150, height: 46 };
/** The office's logo at the top of the first page: this high at most, as wide as its proportions want. */
const LOGO = { height: 28, maxWidth: 180 };

export type AuditTrailContext = {
  doc: PDFDocument;
  fonts: SealFonts;
  labels: AuditLabels;
  /** Writes the text in the language's direction, Arabic shaped (text-writer.ts). */
  writer: TextWriter;
  colors: AuditColors;
  /** Who the page is from: the office's name and, where it set one, its logo. */
  brand: { officeName: string; logo?: PDFImage | undefined };
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

type Row = { label: string; lines: string[]; font: PDFFont; size: number; direction: TextDirection };
/**
 * A piece of the layout: its height, and how to draw it with its top at `top`. A block that
 * keeps with the previous one never starts a page alone: the previous block moves along.
 */
export type Block = { height: number; draw: (canvas: AuditCanvas, top: number) => void; keepWithPrevious?: boolean };

/**
 * Appends the audit trail: the office, the document, one card per party, the attachments, the
 * events and the chain head, flowing onto as many pages as it needs, laid out from the right
 * for a language written right to left.
 */
export function drawAuditTrail(context: AuditTrailContext) {
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
    const canvas = auditCanvas(page, context.writer);
    canvas.rect({ x: 0, y: size.height - 6, width: size.width, height: 6, color: context.colors.ink });
    let top = size.height - MARGIN;
    for (const block of pageBlocks) {
      block.draw(canvas, top);
      top -= block.height;
    }
    drawFooter(context, canvas, size.width, index + 1, pagesOfBlocks.length);
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

/** The office (its logo, else its name), the title and what the page is. */
function headerBlock({ fonts, labels, writer, colors, brand }: AuditTrailContext, width: number): Block {
  const logo = brand.logo;
  const logoSize = logo
    ? { width: Math.min(LOGO.maxWidth, (logo.width / logo.height) * LOGO.height), height: LOGO.height }
    : undefined;
  if (logo && logoSize) logoSize.height = Math.min(LOGO.height, (logoSize.width / logo.width) * logo.height);
  const officeName = writer.truncate(
    fonts.bold,
    writer.renderable(fonts.bold, brand.officeName || 'SignDesk'),
    9,
    width,
  );
  const brandHeight = logoSize ? logoSize.height + 8 : 14;
  return {
    height: brandHeight + 60,
    draw: (canvas, top) => {
      if (logo && logoSize) canvas.image(logo, { x: MARGIN, y: top - logoSize.height, ...logoSize });
      else
        canvas.text(officeName, {
          x: MARGIN,
          y: top - 10,
          size: 9,
          font: fonts.bold,
          color: colors.ink,
          direction: 'auto',
        });
      const below = top - brandHeight;
      canvas.text(labels.t('title'), { x: MARGIN, y: below - 20, size: 20, font: fonts.bold, color: DARK });
      canvas.text(labels.t('subtitle'), { x: MARGIN, y: below - 36, size: 10, font: fonts.regular, color: MUTED });
      canvas.line({
        start: { x: MARGIN, y: below - 46 },
        end: { x: MARGIN + width, y: below - 46 },
        thickness: 0.8,
        color: RULE,
      });
    },
  };
}

/** A time as the interface writes it (with its offset from UTC), and under it in the language's own long form. */
export function timeLines({ labels, audit }: AuditTrailContext, time: AuditTime): string[] {
  const shown = formatAuditTime(time, audit.timeZone);
  if (shown === undefined) return ['—'];
  const epoch = typeof time === 'number' ? time : time instanceof Date ? time.getTime() : undefined;
  return epoch === undefined ? [shown] : [shown, formatLocalTime(epoch, labels.language, audit.timeZone)];
}

function documentBlock(context: AuditTrailContext, width: number): Block {
  const { fonts, labels, audit, writer } = context;
  const valueWidth = width - LABEL_WIDTH - 24;
  const t = labels.t;
  const rows = [
    textRow(context, fonts.bold, t('document'), audit.documentName, valueWidth),
    textRow(context, fonts.regular, t('contract'), String(audit.contractId), valueWidth),
    monoRow(fonts.mono, t('documentSha256'), audit.documentSha256.toLowerCase(), valueWidth, writer),
    textRow(context, fonts.regular, t('pages'), String(context.originalPageCount), valueWidth),
    linesRow(context, t('completed'), timeLines(context, audit.completedTime), valueWidth),
    textRow(context, fonts.regular, t('sealedBy'), context.seal.subject, valueWidth),
    monoRow(
      fonts.mono,
      t('sealFingerprint'),
      context.seal.fingerprintSha256.replaceAll(':', '').toLowerCase(),
      valueWidth,
      writer,
    ),
    ...timestampRow(context).map((row) => textRow(context, fonts.regular, row.label, row.value, valueWidth, 'page')),
  ];
  const rowsHeight = heightOf(rows);
  const panelHeight = rowsHeight + 24;
  const note = writer.wrap(
    fonts.regular,
    writer.renderable(fonts.regular, t('timesIn', { zone: audit.timeZone })),
    8,
    width,
  );
  return {
    height: panelHeight + 18 + note.length * 8 * LEADING,
    draw: (canvas, top) => {
      canvas.rect({ x: MARGIN, y: top - panelHeight, width, height: panelHeight, color: PANEL });
      drawRows(context, canvas, rows, MARGIN + 12, top - 12);
      note.forEach((line, index) =>
        canvas.text(line, {
          x: MARGIN,
          y: top - panelHeight - 14 - index * 8 * LEADING,
          size: 8,
          font: fonts.regular,
          color: MUTED,
        }),
      );
    },
  };
}

function partiesHeading({ fonts, labels, audit }: AuditTrailContext, width: number): Block {
  return {
    height: 30,
    draw: (canvas, top) => {
      canvas.text(labels.t('parties', { n: audit.parties.length }), {
        x: MARGIN,
        y: top - 14,
        size: 12.5,
        font: fonts.bold,
        color: DARK,
      });
      canvas.line({
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
  const { fonts, labels, writer, colors } = context;
  const t = labels.t;
  // With a mark, the values make room for it on the right.
  const valueWidth = width - LABEL_WIDTH - 24 - (mark ? MARK_BOX.width + 12 : 0);
  const userAgentLines = writer.wrap(
    fonts.regular,
    writer.renderable(fonts.regular, party.userAgent || '—'),
    BODY,
    valueWidth,
  );
  const rows: Row[] = [
    ...(party.signatureName ? [textRow(context, fonts.regular, t('signedAs'), party.signatureName, valueWidth)] : []),
    textRow(context, fonts.regular, t('contact'), party.contact || '—', valueWidth),
    ...(party.identityNumber
      ? [textRow(context, fonts.regular, t('identityNumber'), party.identityNumber, valueWidth)]
      : []),
    textRow(
      context,
      fonts.regular,
      t('authentication'),
      labels.authentication(party.authentication),
      valueWidth,
      'page',
    ),
    textRow(context, fonts.regular, t('ipAddress'), party.ipAddress || '—', valueWidth),
    {
      label: t('userAgent'),
      lines: capLines(writer, fonts.regular, userAgentLines, valueWidth),
      font: fonts.regular,
      size: BODY,
      direction: 'auto',
    },
    linesRow(context, t('sent'), timeLines(context, party.sentTime), valueWidth),
    linesRow(context, t('opened'), timeLines(context, party.openedTime), valueWidth),
    linesRow(context, t('signed'), timeLines(context, party.signedTime), valueWidth),
  ];
  const role = writer.renderable(fonts.bold, labels.role(party.signType));
  const name = writer.truncate(fonts.bold, writer.renderable(fonts.bold, party.name), 12, width - 140);
  const cardHeight = Math.max(30 + heightOf(rows) + 8, mark ? 30 + MARK_BOX.height + 8 : 0);
  return {
    height: cardHeight + 12,
    draw: (canvas, top) => {
      canvas.rect({ x: MARGIN, y: top - cardHeight, width: 2.2, height: cardHeight, color: colors.ink });
      canvas.text(name, { x: MARGIN + 12, y: top - 16, size: 12, font: fonts.bold, color: DARK, direction: 'auto' });
      const roleWidth = writer.width(fonts.bold, role, 7.5) + 14;
      canvas.rect({ x: MARGIN + width - roleWidth, y: top - 19, width: roleWidth, height: 15, color: colors.badge });
      canvas.text(role, {
        x: MARGIN + width - roleWidth + 7,
        y: top - 14.5,
        size: 7.5,
        font: fonts.bold,
        color: colors.ink,
      });
      drawRows(context, canvas, rows, MARGIN + 12, top - 30);
      if (mark) drawMark(context, canvas, mark, MARGIN + width - MARK_BOX.width, top - 30 - MARK_BOX.height);
      canvas.line({
        start: { x: MARGIN + 12, y: top - cardHeight - 6 },
        end: { x: MARGIN + width, y: top - cardHeight - 6 },
        thickness: 0.4,
        color: RULE,
      });
    },
  };
}

/** The mark in its box (bottom-left at x, y) as large as fits, over a thin signing line. */
function drawMark(
  { writer, colors }: AuditTrailContext,
  canvas: AuditCanvas,
  mark: AuditMark,
  x: number,
  y: number,
): void {
  const { width, height } = MARK_BOX;
  canvas.line({ start: { x, y: y + 4 }, end: { x: x + width, y: y + 4 }, thickness: 0.5, color: RULE });
  if ('image' in mark) {
    const scale = Math.min(width / mark.image.width, (height - 6) / mark.image.height);
    const drawnWidth = mark.image.width * scale;
    canvas.image(mark.image, {
      x: x + (width - drawnWidth) / 2,
      y: y + 6,
      width: drawnWidth,
      height: mark.image.height * scale,
    });
    return;
  }
  const text = writer.renderable(mark.font, mark.text);
  const size = Math.min(24, (width / Math.max(1, writer.width(mark.font, text, 1, 'auto'))) * 0.95);
  canvas.text(text, {
    x: x + (width - writer.width(mark.font, text, size, 'auto')) / 2,
    y: y + 9,
    size,
    font: mark.font,
    color: colors.ink,
    direction: 'auto',
  });
}

function sealNote({ fonts, labels, isOriginalPrefix, writer }: AuditTrailContext, width: number): Block {
  const lines = writer.wrap(fonts.regular, labels.t(isOriginalPrefix ? 'seal' : 'sealRewritten'), 8.5, width - 24);
  const height = lines.length * 8.5 * LEADING + 20;
  return {
    height: height + 14,
    draw: (canvas, top) => {
      const y = top - 8;
      canvas.rect({ x: MARGIN, y: y - height, width, height, borderColor: RULE, borderWidth: 0.6 });
      lines.forEach((line, index) =>
        canvas.text(line, {
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
  { fonts, labels, audit, writer }: AuditTrailContext,
  canvas: AuditCanvas,
  pageWidth: number,
  index: number,
  count: number,
): void {
  const left = writer.truncate(
    fonts.regular,
    writer.renderable(fonts.regular, audit.documentName),
    7.5,
    pageWidth - 2 * MARGIN - 160,
  );
  const right = labels.t('pageOf', { page: index, pages: count });
  canvas.line({
    start: { x: MARGIN, y: MARGIN - 8 },
    end: { x: pageWidth - MARGIN, y: MARGIN - 8 },
    thickness: 0.5,
    color: RULE,
  });
  canvas.text(left, { x: MARGIN, y: MARGIN - 20, size: 7.5, font: fonts.regular, color: MUTED, direction: 'auto' });
  canvas.text(right, {
    x: pageWidth - MARGIN - writer.width(fonts.regular, right, 7.5),
    y: MARGIN - 20,
    size: 7.5,
    font: fonts.regular,
    color: MUTED,
  });
}

/** A row of one value, wrapped; a value (a name, an address) runs in its own direction unless it is the page's words. */
function textRow(
  { writer }: AuditTrailContext,
  font: PDFFont,
  label: string,
  value: string,
  width: number,
  direction: TextDirection = 'auto',
): Row {
  return { label, lines: writer.wrap(font, writer.renderable(font, value), BODY, width), font, size: BODY, direction };
}

/** A row of several values, one per line (a time and its long form). */
function linesRow(context: AuditTrailContext, label: string, values: string[], width: number): Row {
  const { writer, fonts } = context;
  return {
    label,
    lines: values.flatMap((value) => writer.wrap(fonts.regular, writer.renderable(fonts.regular, value), BODY, width)),
    font: fonts.regular,
    size: BODY,
    direction: 'auto',
  };
}

function monoRow(font: PDFFont, label: string, value: string, width: number, writer: TextWriter): Row {
  return {
    label,
    lines: writer.wrap(font, value.replace(/[^\x20-\x7e]/g, '?'), MONO, width),
    font,
    size: MONO,
    direction: 'auto',
  };
}

function capLines(writer: TextWriter, font: PDFFont, lines: string[], width: number): string[] {
  if (lines.length <= MAX_USER_AGENT_LINES) return lines;
  const kept = lines.slice(0, MAX_USER_AGENT_LINES);
  kept[kept.length - 1] = writer.truncate(font, `${kept.at(-1)}…`, BODY, width);
  return kept;
}

function heightOf(rows: Row[]): number {
  return rows.reduce((sum, row) => sum + Math.max(1, row.lines.length) * BODY * LEADING + ROW_GAP, 0) - ROW_GAP;
}

/**
 * Label and values, the values at LABEL_WIDTH from the label. A value's own direction decides
 * where it sits in its column on a right-to-left page: the canvas mirrors its box, the writer
 * orders its letters.
 */
function drawRows(
  { fonts, writer }: AuditTrailContext,
  canvas: AuditCanvas,
  rows: Row[],
  x: number,
  top: number,
): void {
  let y = top;
  for (const row of rows) {
    const baseline = y - BODY;
    canvas.text(writer.renderable(fonts.regular, row.label), {
      x,
      y: baseline,
      size: LABEL,
      font: fonts.regular,
      color: MUTED,
    });
    row.lines.forEach((line, index) =>
      canvas.text(line, {
        x: x + LABEL_WIDTH,
        y: baseline - index * BODY * LEADING,
        size: row.size,
        font: row.font,
        color: DARK,
        direction: row.direction,
      }),
    );
    y -= Math.max(1, row.lines.length) * BODY * LEADING + ROW_GAP;
  }
}
