import { randomBytes } from 'node:crypto';
import {
  concatTransformationMatrix,
  degrees,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  StandardFonts,
} from 'pdf-lib';

export type ContractPdfOptions = {
  pages: number;
  /** Page sizes in points, used in turn (default A4). */
  sizes?: Array<[number, number]>;
  /** /Rotate per 1-based page number. */
  rotate?: Record<number, number>;
  /** A CropBox inset (points) on every page, to test CropBox offsets. */
  cropInset?: number;
  useObjectStreams?: boolean;
  /** Pad the file with incompressible image data to about this many bytes. */
  targetBytes?: number;
  title?: string;
};

const LOREM =
  'The Supplier shall deliver the Goods in accordance with the Specification and the delivery schedule agreed between the Parties, and the Customer shall pay the Price within thirty days of invoice.';

/** A contract-like PDF made with pdf-lib: numbered clauses on every page, a signature line on the last. */
export async function makeContractPdf(options: ContractPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(options.title ?? 'Supply agreement');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const sizes = options.sizes ?? [[595.28, 841.89]];
  const images = imageObjects(doc, options.targetBytes ?? 0);

  for (let index = 0; index < options.pages; index += 1) {
    const [width, height] = sizes[index % sizes.length]!;
    const page = doc.addPage([width, height]);
    const number = index + 1;
    if (options.rotate?.[number]) page.setRotation(degrees(options.rotate[number]!));
    if (options.cropInset)
      page.setCropBox(
        options.cropInset,
        options.cropInset,
        width - 2 * options.cropInset,
        height - 2 * options.cropInset,
      );
    page.drawText(`${options.title ?? 'Supply agreement'} - page ${number}`, {
      x: 60,
      y: height - 70,
      size: 16,
      font: bold,
    });
    let y = height - 110;
    for (let clause = 1; clause <= 12 && y > 120; clause += 1) {
      page.drawText(`${number}.${clause}  ${LOREM.slice(0, Math.floor((width - 140) / 4.6))}`, {
        x: 60,
        y,
        size: 9,
        font,
        color: rgb(0.2, 0.2, 0.2),
      });
      y -= 22;
    }
    const image = images[index % Math.max(1, images.length)];
    if (image && index < images.length) {
      const name = page.node.newXObject('Im', image);
      page.pushOperators(
        pushGraphicsState(),
        concatTransformationMatrix(80, 0, 0, 40, width - 140, 40),
        drawObject(name),
        popGraphicsState(),
      );
    }
    page.drawLine({ start: { x: 60, y: 100 }, end: { x: 260, y: 100 }, thickness: 0.5 });
  }
  return doc.save({ useObjectStreams: options.useObjectStreams ?? true });
}

/** Incompressible RGB images (noise) that bring the file to about targetBytes. */
function imageObjects(doc: PDFDocument, targetBytes: number) {
  const count = targetBytes > 0 ? 8 : 0;
  const side = Math.floor(Math.sqrt(targetBytes / Math.max(1, count) / 3));
  return Array.from({ length: count }, () =>
    doc.context.register(
      doc.context.stream(randomBytes(side * side * 3), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: side,
        Height: side,
        ColorSpace: PDFName.of('DeviceRGB'),
        BitsPerComponent: 8,
      }),
    ),
  );
}
