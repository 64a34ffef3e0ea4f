import type { PDFPage } from 'pdf-lib';

/** A box as the API gives it: PDF points from the top-left of the page as displayed, y down. */
export type TopLeftBox = { x: number; y: number; width: number; height: number };

export type Matrix = [number, number, number, number, number, number];

/** The page's size as a viewer shows it: its CropBox, turned by /Rotate. */
export function displayedSize(page: PDFPage): { width: number; height: number } {
  const crop = page.getCropBox();
  const quarterTurns = rotationOf(page) / 90;
  return quarterTurns % 2 === 0
    ? { width: crop.width, height: crop.height }
    : { width: crop.height, height: crop.width };
}

/**
 * The matrix (for `cm`) from a box-local frame (origin at the box's bottom-left as displayed,
 * x right, y up: where pdf-lib draws) to the page's user space. It accounts for the CropBox
 * offset and /Rotate, so that text drawn in the frame reads upright where the viewer shows the box.
 */
export function boxFrameMatrix(page: PDFPage, box: TopLeftBox): Matrix {
  const crop = page.getCropBox();
  const left = crop.x;
  const bottom = crop.y;
  const right = crop.x + crop.width;
  const top = crop.y + crop.height;
  const { x, y, height } = box;
  switch (rotationOf(page)) {
    case 90:
      return [0, 1, -1, 0, left + y + height, bottom + x];
    case 180:
      return [-1, 0, 0, -1, right - x, bottom + y + height];
    case 270:
      return [0, -1, 1, 0, right - y - height, top - x];
    default:
      return [1, 0, 0, 1, left + x, top - y - height];
  }
}

/** /Rotate as 0, 90, 180 or 270 (the spec allows any multiple of 90, negative too). */
export function rotationOf(page: PDFPage): 0 | 90 | 180 | 270 {
  const angle = page.getRotation().angle;
  return ((((Math.round(angle / 90) * 90) % 360) + 360) % 360) as 0 | 90 | 180 | 270;
}
