import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

/** A line of a tagged test document: text drawn at (x, y from the top), split into runs at `|` (each run its own text operator, alternating fonts). */
export type TaggedLine = { page: number; x: number; y: number; text: string; size?: number };

export type TaggedPdfOptions = { pages: number; lines: TaggedLine[]; rotate?: number };

/** Draws one line; a `|` starts a new run in the other font, as a word processor writes a font change mid-word. */
function drawLine(page: PDFPage, fonts: [PDFFont, PDFFont], line: TaggedLine): void {
  const size = line.size ?? 11;
  let x = line.x;
  line.text.split('|').forEach((run, index) => {
    const font = fonts[index % 2]!;
    page.drawText(run, { x, y: page.getHeight() - line.y, size, font, color: rgb(0, 0, 0) });
    x += font.widthOfTextAtSize(run, size);
  });
}

/**
 * A contract as an office exports it from its word processor: several A4 pages of text with
 * text tags (`{{signature:1}}` …) where the fields belong. Made with pdf-lib.
 */
export async function makeTaggedPdf(options: TaggedPdfOptions): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: [PDFFont, PDFFont] = [
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  ];
  for (let index = 0; index < options.pages; index += 1) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Page ${index + 1}`, { x: 50, y: page.getHeight() - 50, size: 14, font: fonts[1] });
    for (const line of options.lines.filter((candidate) => candidate.page === index + 1)) drawLine(page, fonts, line);
    if (options.rotate) page.setRotation(degrees(options.rotate));
  }
  return doc.save({ useObjectStreams: false });
}

/** The lease of a house on three pages, tagged for two parties; on page 2 one tag is split into three runs. */
export const LEASE_LINES: TaggedLine[] = [
  { page: 1, x: 60, y: 120, text: 'Lease of the flat at Storgatan 1, Stockholm.' },
  { page: 1, x: 60, y: 160, text: 'Tenant: {{name:2}}' },
  { page: 1, x: 60, y: 200, text: 'Parking space wanted: {{checkbox:2}}' },
  { page: 2, x: 60, y: 120, text: 'Special terms: {{text:1}}' },
  { page: 2, x: 60, y: 200, text: 'Initials: {{init|ials:|2}}' },
  { page: 3, x: 60, y: 300, text: 'Landlord: {{signature:1}}   Date: {{date:1}}' },
  { page: 3, x: 60, y: 420, text: 'Tenant: {{signature:2}}' },
];
