import {
  concatTransformationMatrix,
  LineCapStyle,
  LineJoinStyle,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setLineCap,
  setLineJoin,
  setLineWidth,
  setStrokingColor,
  stroke,
  type PDFDocument,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import type { AuditLabels } from './audit-labels';
import { fitLine, fitParagraph } from './fit-text';
import { formatAuditTime, type AuditTime } from './format-audit-time';
import { boxFrameMatrix } from './page-geometry';
import { canRender, renderable, widthOf, type SealFonts } from './seal-fonts';
import type { SignedPdfCover, SignedPdfField } from './signed-pdf-types';

const INK = rgb(0.06, 0.15, 0.42);
const TEXT = rgb(0.1, 0.1, 0.12);
const FRAME = rgb(0.62, 0.66, 0.74);
const CAPTION = rgb(0.36, 0.39, 0.45);
/** Noto Sans's cap height (em): text is centred on its capitals, which looks centred to the eye. */
const CAP_HEIGHT = 0.714;
const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/;

type StampContext = { doc: PDFDocument; fonts: SealFonts; labels: AuditLabels; timeZone: string; signedTimeOf: (field: SignedPdfField) => AuditTime };

/** White boxes over the text tags fields were made from, drawn before (under) the fields. */
export function paintCovers(doc: PDFDocument, covers: readonly SignedPdfCover[]): void {
  const pages = doc.getPages();
  for (const cover of covers) {
    const page = pages[cover.page - 1];
    if (!page || !(cover.width > 0 && cover.height > 0)) continue;
    // A point of margin: the tag's box is measured from font metrics, and no stroke of it may peek out.
    const box = { x: cover.x - 1, y: cover.y - 1, width: cover.width + 2, height: cover.height + 2 };
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...boxFrameMatrix(page, box)));
    page.drawRectangle({ x: 0, y: 0, width: box.width, height: box.height, color: rgb(1, 1, 1) });
    page.pushOperators(popGraphicsState());
  }
}

/** Draws every field's value at its annotation, each in its own box-local frame (see boxFrameMatrix). */
export async function stampFields(context: StampContext, fields: SignedPdfField[]): Promise<void> {
  const pages = context.doc.getPages();
  for (const field of fields) {
    const page = pages[field.page - 1];
    if (!page) throw new RangeError(`Field on page ${field.page}, but the document has ${pages.length} pages.`);
    if (!(field.width > 0 && field.height > 0)) continue;
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...boxFrameMatrix(page, field)));
    await drawField(context, page, field);
    page.pushOperators(popGraphicsState());
  }
}

async function drawField(context: StampContext, page: PDFPage, field: SignedPdfField): Promise<void> {
  const { width, height } = field;
  const text = typeof field.value === 'string' ? field.value.trim() : '';
  switch (field.type) {
    case 'SIGNATURE':
      return drawSignature(context, page, field, text);
    case 'INITIALS':
      drawFrame(page, width, height);
      return drawScript(context.fonts, page, text || initialsOf(field.signerName), 0, 0, width, height);
    case 'CHECKBOX':
      drawFrame(page, width, height);
      if (field.value === true || /^(true|yes|on|1|x)$/i.test(text)) drawCheckMark(page, width, height);
      return;
    case 'DATE':
      return drawText(context.fonts.regular, page, text || (formatAuditTime(context.signedTimeOf(field), context.timeZone, { offset: false, seconds: false })?.slice(0, 10) ?? ''), width, height, false);
    case 'NAME':
      return drawText(context.fonts.regular, page, text || field.signerName, width, height, false);
    default:
      return drawText(context.fonts.regular, page, text, width, height, true);
  }
}

/** The signer's name in script (or the drawn PNG) in a thin frame, over a "Signed by … · date" caption. */
async function drawSignature(context: StampContext, page: PDFPage, field: SignedPdfField, text: string): Promise<void> {
  const { width, height } = field;
  const { fonts, labels } = context;
  drawFrame(page, width, height);
  const pad = Math.min(4, width * 0.05, height * 0.08);
  const captionSize = clamp(height * 0.15, 4, 7);
  const hasCaption = height >= 24 && width >= 48;
  const markBottom = hasCaption ? pad + captionSize * 1.5 : pad;

  if (hasCaption) {
    const date = formatAuditTime(context.signedTimeOf(field), context.timeZone, { seconds: false, offset: false });
    const caption = renderable(fonts.regular, [labels.signedBy(field.signerName), date].filter(Boolean).join(' · '));
    const fitted = fitLine(fonts.regular, caption, width - 2 * pad, captionSize, 3.5);
    page.drawText(fitted.text, { x: pad, y: pad + captionSize * 0.25, size: fitted.size, font: fonts.regular, color: CAPTION });
    page.drawLine({ start: { x: pad, y: markBottom - captionSize * 0.2 }, end: { x: width - pad, y: markBottom - captionSize * 0.2 }, thickness: 0.4, color: FRAME });
  }

  const drawn = PNG_DATA_URL.exec(text);
  const image = drawn ? await context.doc.embedPng(Buffer.from(drawn[1]!, 'base64')).catch(() => undefined) : undefined;
  if (image) {
    const boxWidth = width - 2 * pad;
    const boxHeight = height - markBottom - pad;
    const scale = Math.min(boxWidth / image.width, boxHeight / image.height);
    page.drawImage(image, { x: pad + (boxWidth - image.width * scale) / 2, y: markBottom + (boxHeight - image.height * scale) / 2, width: image.width * scale, height: image.height * scale });
    return;
  }
  // A drawn mark that is not a readable PNG falls back to the name in script.
  drawScript(fonts, page, (drawn ? '' : text) || field.signerName, pad, markBottom, width - 2 * pad, height - markBottom - pad);
}

/** Text in the script face, as large as fits, centred; a name the face cannot write falls back to Noto Sans. */
function drawScript(fonts: SealFonts, page: PDFPage, text: string, x: number, y: number, width: number, height: number): void {
  const font = canRender(fonts.script, text) ? fonts.script : fonts.regular;
  const line = renderable(font, text.replace(/\s+/g, ' '));
  const glyphHeight = font.heightAtSize(1, { descender: true });
  const maxSize = Math.min(height / glyphHeight, 40);
  const fitted = fitLine(font, line, width * 0.94, maxSize, 4);
  const descent = (glyphHeight - font.heightAtSize(1, { descender: false })) * fitted.size;
  const textWidth = widthOf(font, fitted.text, fitted.size);
  const textHeight = glyphHeight * fitted.size;
  page.drawText(fitted.text, { x: x + (width - textWidth) / 2, y: y + (height - textHeight) / 2 + descent, size: fitted.size, font, color: INK });
}

/** Plain text as large as fits (at most 11 pt), left-aligned and centred vertically; TEXT fields wrap. */
function drawText(font: PDFFont, page: PDFPage, raw: string, width: number, height: number, wraps: boolean): void {
  const text = renderable(font, wraps ? raw : raw.replace(/\s+/g, ' '));
  if (!text) return;
  const pad = Math.min(2, width * 0.04);
  const maxSize = Math.min(11, height * 0.72);
  if (!wraps) {
    const fitted = fitLine(font, text, width - 2 * pad, maxSize, 4);
    page.drawText(fitted.text, { x: pad, y: (height - CAP_HEIGHT * fitted.size) / 2, size: fitted.size, font, color: TEXT });
    return;
  }
  const leading = 1.2;
  const { lines, size } = fitParagraph(font, text, width - 2 * pad, height - pad, maxSize, 4, leading);
  // Centre the block from the first line's cap height to the last line's baseline.
  const block = (lines.length - 1) * size * leading + CAP_HEIGHT * size;
  let baseline = (height + block) / 2 - CAP_HEIGHT * size;
  for (const line of lines) {
    page.drawText(line, { x: pad, y: baseline, size, font, color: TEXT });
    baseline -= size * leading;
  }
}

function drawFrame(page: PDFPage, width: number, height: number): void {
  page.drawRectangle({ x: 0.3, y: 0.3, width: width - 0.6, height: height - 0.6, borderColor: FRAME, borderWidth: 0.6 });
}

function drawCheckMark(page: PDFPage, width: number, height: number): void {
  const side = Math.min(width, height);
  const left = (width - side) / 2;
  const bottom = (height - side) / 2;
  const at = (fx: number, fy: number): [number, number] => [left + side * fx, bottom + side * fy];
  page.pushOperators(
    pushGraphicsState(),
    setStrokingColor(INK),
    setLineWidth(Math.max(0.8, side * 0.11)),
    setLineCap(LineCapStyle.Round),
    setLineJoin(LineJoinStyle.Round),
    moveTo(...at(0.22, 0.52)),
    lineTo(...at(0.42, 0.28)),
    lineTo(...at(0.8, 0.76)),
    stroke(),
    popGraphicsState(),
  );
}

function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((part) => [...part][0]!.toUpperCase())
    .join('');
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
