import type { PDFFont, PDFPage } from 'pdf-lib';
import { fitLine } from './fit-text';
import { renderable } from './seal-fonts';
import { CAP_HEIGHT, CAPTION, FRAME, INK, TEXT } from './stamp-style';

/**
 * A RADIO field: every option with its round button, the chosen one filled, when they fit the
 * box a line each; else only the chosen option, marked.
 */
export function drawRadio(
  font: PDFFont,
  page: PDFPage,
  options: readonly string[],
  chosen: string,
  width: number,
  height: number,
): void {
  const shown = height / options.length >= 8 ? options : chosen ? [chosen] : [];
  if (shown.length === 0) return;
  const line = height / shown.length;
  const size = Math.min(11, line * 0.72);
  const radius = size * 0.36;
  shown.forEach((option, index) => {
    const middle = height - line * (index + 0.5);
    const isChosen = option === chosen;
    page.drawCircle({
      x: radius + 1,
      y: middle,
      size: radius,
      borderColor: isChosen ? INK : FRAME,
      borderWidth: 0.7,
      color: isChosen ? INK : undefined,
    });
    const left = 2 * radius + 4;
    const fitted = fitLine(font, renderable(font, option), Math.max(1, width - left - 1), size, 4);
    page.drawText(fitted.text, {
      x: left,
      y: middle - (CAP_HEIGHT * fitted.size) / 2,
      size: fitted.size,
      font,
      color: isChosen ? TEXT : CAPTION,
    });
  });
}
