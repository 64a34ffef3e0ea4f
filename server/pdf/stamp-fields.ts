import { initialsOf } from '../../shared/initials';
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
import { coverOf } from './tag-cover';
import { drawRadio } from './stamp-radio';
import { CAP_HEIGHT, CAPTION, FRAME, INK, TEXT } from './stamp-style';
import { fitLine, fitParagraph } from './fit-text';
import { formatAuditTime, type AuditTime } from './format-audit-time';
import { boxFrameMatrix } from './page-geometry';
import { canRender, renderable, widthOf, type SealFonts } from './seal-fonts';
import type { SignedPdfCover, SignedPdfField } from './signed-pdf-types';
import type { TextWriter } from './text-writer';

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/;

type StampContext = {
  doc: PDFDocument;
  fonts: SealFonts;
  labels: AuditLabels;
  writer: TextWriter;
  timeZone: string;
  signedTimeOf: (field: SignedPdfField) => AuditTime;
};

/** White boxes over the text tags fields were made from, drawn before (under) the fields. */
export function paintCovers(doc: PDFDocument, covers: readonly SignedPdfCover[]): void {
  const pages = doc.getPages();
  for (const cover of covers) {
    const page = pages[cover.page - 1];
    if (!page || !(cover.width > 0 && cover.height > 0)) continue;
    const box = coverOf(cover);
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
    const face = field.mark ? await context.fonts.face(field.mark.face) : context.fonts.script;
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...boxFrameMatrix(page, field)));
    await drawField(context, page, field, face);
    page.pushOperators(popGraphicsState());
  }
}

async function drawField(context: StampContext, page: PDFPage, field: SignedPdfField, face: PDFFont): Promise<void> {
  const { width, height } = field;
  const text = typeof field.value === 'string' ? field.value.trim() : '';
  switch (field.type) {
    case 'SIGNATURE':
      return drawSignature(context, page, field, text, face);
    case 'INITIALS': {
      drawFrame(page, width, height);
      const pad = Math.min(2, width * 0.06, height * 0.08);
      if (
        field.mark?.initialsPng &&
        (await drawPng(context.doc, page, field.mark.initialsPng, pad, pad, width - 2 * pad, height - 2 * pad))
      )
        return;
      return drawScript(
        context.fonts,
        face,
        page,
        (field.mark ? '' : text) || initialsOf(field.signerName),
        0,
        0,
        width,
        height,
      );
    }
    case 'CHECKBOX':
      drawFrame(page, width, height);
      if (field.value === true || /^(true|yes|on|1|x)$/i.test(text)) drawCheckMark(page, width, height);
      return;
    case 'DATE':
      return drawText(
        context.fonts.regular,
        page,
        text ||
          (formatAuditTime(context.signedTimeOf(field), context.timeZone, { offset: false, seconds: false })?.slice(
            0,
            10,
          ) ??
            ''),
        width,
        height,
        false,
      );
    case 'NAME':
      return drawText(context.fonts.regular, page, text || field.signerName, width, height, false);
    case 'NUMBER':
    case 'EMAIL':
    case 'DROPDOWN':
    case 'ATTACHMENT':
      return drawText(context.fonts.regular, page, text, width, height, false);
    case 'RADIO':
      return drawRadio(context.fonts.regular, page, field.options ?? [text], text, width, height);
    default:
      return drawText(context.fonts.regular, page, text, width, height, true);
  }
}

/** The signer's mark (its picture, or its name in its face) in a thin frame, over a "Signed by … · date" caption. */
async function drawSignature(
  context: StampContext,
  page: PDFPage,
  field: SignedPdfField,
  text: string,
  face: PDFFont,
): Promise<void> {
  const { width, height } = field;
  const { fonts, labels } = context;
  drawFrame(page, width, height);
  const pad = Math.min(4, width * 0.05, height * 0.08);
  const captionSize = clamp(height * 0.15, 4, 7);
  const hasCaption = height >= 24 && width >= 48;
  const markBottom = hasCaption ? pad + captionSize * 1.5 : pad;

  if (hasCaption) {
    const date = formatAuditTime(context.signedTimeOf(field), context.timeZone, { seconds: false, offset: false });
    const { writer } = context;
    const caption = writer.renderable(
      fonts.regular,
      [labels.t('signedBy', { name: field.signerName }), date].filter(Boolean).join(' · '),
    );
    // The caption's size fitted to the box as fitLine does, measured as the writer draws it (shaped, in its direction).
    const atOne = writer.width(fonts.regular, caption, 1);
    const size = Math.max(3.5, Math.min(captionSize, atOne > 0 ? (width - 2 * pad) / atOne : captionSize));
    const fitted = writer.truncate(fonts.regular, caption, size, width - 2 * pad);
    const captionWidth = writer.width(fonts.regular, fitted, size);
    writer.draw(page, fitted, {
      x: writer.isRightToLeft ? width - pad - captionWidth : pad,
      y: pad + captionSize * 0.25,
      size,
      font: fonts.regular,
      color: CAPTION,
    });
    page.drawLine({
      start: { x: pad, y: markBottom - captionSize * 0.2 },
      end: { x: width - pad, y: markBottom - captionSize * 0.2 },
      thickness: 0.4,
      color: FRAME,
    });
  }

  const drawn = field.mark ? undefined : PNG_DATA_URL.exec(text);
  const png = field.mark?.signaturePng ?? (drawn ? Buffer.from(drawn[1]!, 'base64') : undefined);
  if (png && (await drawPng(context.doc, page, png, pad, markBottom, width - 2 * pad, height - markBottom - pad)))
    return;
  // A drawn mark that is not a readable PNG falls back to the name in script.
  drawScript(
    fonts,
    face,
    page,
    (drawn || field.mark ? '' : text) || field.signerName,
    pad,
    markBottom,
    width - 2 * pad,
    height - markBottom - pad,
  );
}

/** A PNG as large as fits in the box, centred; false when the bytes are not a PNG pdf-lib reads. */
async function drawPng(
  doc: PDFDocument,
  page: PDFPage,
  png: Uint8Array,
  x: number,
  y: number,
  width: number,
  height: number,
): Promise<boolean> {
  const image = await doc.embedPng(png).catch(() => undefined);
  if (!image || width <= 0 || height <= 0) return false;
  const scale = Math.min(width / image.width, height / image.height);
  page.drawImage(image, {
    x: x + (width - image.width * scale) / 2,
    y: y + (height - image.height * scale) / 2,
    width: image.width * scale,
    height: image.height * scale,
  });
  return true;
}

/** Text in the script face, as large as fits, centred; a name the face cannot write falls back to Noto Sans. */
function drawScript(
  fonts: SealFonts,
  face: PDFFont,
  page: PDFPage,
  text: string,
  x: number,
  y: number,
  width: number,
  height: number,
): void {
  const font = canRender(face, text) ? face : fonts.regular;
  const line = renderable(font, text.replace(/\s+/g, ' '));
  const glyphHeight = font.heightAtSize(1, { descender: true });
  const maxSize = Math.min(height / glyphHeight, 40);
  const fitted = fitLine(font, line, width * 0.94, maxSize, 4);
  const descent = (glyphHeight - font.heightAtSize(1, { descender: false })) * fitted.size;
  const textWidth = widthOf(font, fitted.text, fitted.size);
  const textHeight = glyphHeight * fitted.size;
  page.drawText(fitted.text, {
    x: x + (width - textWidth) / 2,
    y: y + (height - textHeight) / 2 + descent,
    size: fitted.size,
    font,
    color: INK,
  });
}

/** Plain text as large as fits (at most 11 pt), left-aligned and centred vertically; TEXT fields wrap. */
function drawText(font: PDFFont, page: PDFPage, raw: string, width: number, height: number, wraps: boolean): void {
  const text = renderable(font, wraps ? raw : raw.replace(/\s+/g, ' '));
  if (!text) return;
  const pad = Math.min(2, width * 0.04);
  const maxSize = Math.min(11, height * 0.72);
  if (!wraps) {
    const fitted = fitLine(font, text, width - 2 * pad, maxSize, 4);
    page.drawText(fitted.text, {
      x: pad,
      y: (height - CAP_HEIGHT * fitted.size) / 2,
      size: fitted.size,
      font,
      color: TEXT,
    });
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
  page.drawRectangle({
    x: 0.3,
    y: 0.3,
    width: width - 0.6,
    height: height - 0.6,
    borderColor: FRAME,
    borderWidth: 0.6,
  });
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

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
