import { rgb, type Color, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import { parseAccent } from '../../shared/brand';
import { BADGE, INK } from './audit-style';
import type { TextDirection, TextWriter } from './text-writer';

/**
 * One page of the audit trail as its layout code sees it: coordinates as for a page read left
 * to right, mirrored here for a language written right to left, so that the same layout puts
 * labels at the right and values to their left, the party's mark at the left, the page number
 * at the left of the footer. Text goes through the writer (direction, Arabic shaping).
 */
export type AuditCanvas = {
  page: PDFPage;
  text(
    text: string,
    at: { x: number; y: number; size: number; font: PDFFont; color: Color; direction?: TextDirection },
  ): void;
  rect(box: {
    x: number;
    y: number;
    width: number;
    height: number;
    color?: Color;
    borderColor?: Color;
    borderWidth?: number;
  }): void;
  line(stroke: {
    start: { x: number; y: number };
    end: { x: number; y: number };
    thickness: number;
    color: Color;
  }): void;
  image(image: PDFImage, box: { x: number; y: number; width: number; height: number }): void;
};

export function auditCanvas(page: PDFPage, writer: TextWriter): AuditCanvas {
  const pageWidth = page.getWidth();
  const mirror = (x: number, width: number) => (writer.isRightToLeft ? pageWidth - x - width : x);
  return {
    page,
    text(text, at) {
      const width = writer.isRightToLeft ? writer.width(at.font, text, at.size, at.direction) : 0;
      writer.draw(page, text, { ...at, x: mirror(at.x, width) });
    },
    rect(box) {
      page.drawRectangle({ ...box, x: mirror(box.x, box.width) });
    },
    line(stroke) {
      page.drawLine({
        ...stroke,
        start: { x: mirror(stroke.start.x, 0), y: stroke.start.y },
        end: { x: mirror(stroke.end.x, 0), y: stroke.end.y },
      });
    },
    image(image, box) {
      page.drawImage(image, { ...box, x: mirror(box.x, box.width) });
    },
  };
}

/** The audit trail's colours: the office's accent where it set one, else SignDesk's ink. */
export type AuditColors = { ink: Color; badge: Color };

export function auditColors(accent: string | undefined): AuditColors {
  const rgbAccent = accent ? parseAccent(accent) : undefined;
  if (!rgbAccent) return { ink: INK, badge: BADGE };
  const { r, g, b } = rgbAccent;
  const soft = (channel: number) => (channel + (255 - channel) * 0.86) / 255;
  return { ink: rgb(r / 255, g / 255, b / 255), badge: rgb(soft(r), soft(g), soft(b)) };
}
