import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { degrees, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { makeTempDir } from './server';

export type PdfOptions = { pages?: number; size?: [number, number]; text?: (page: number) => string; rotate?: number };

/** A real PDF made with pdf-lib: `pages` pages of `size` points, each with a line of text. */
export async function makePdf(options: PdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < (options.pages ?? 1); index += 1) {
    const page = doc.addPage(options.size ?? [595.28, 841.89]);
    page.drawText(options.text?.(index + 1) ?? `Page ${index + 1}`, {
      x: 50,
      y: page.getHeight() - 80,
      size: 14,
      font,
    });
    if (options.rotate) page.setRotation(degrees(options.rotate));
  }
  return doc.save({ useObjectStreams: false });
}

/** A valid PDF of exactly `bytes` bytes: the slack is an uncompressed stream the catalog points at. */
export async function makePdfOfSize(bytes: number, seed = 0): Promise<Uint8Array> {
  let padding = bytes - 2_000;
  for (let round = 0; round < 8; round += 1) {
    const doc = await PDFDocument.load(await makePdf({ pages: 2, text: (page) => `Sized ${seed} page ${page}` }));
    const filler = new Uint8Array(Math.max(0, padding)).fill(0x41);
    const ref = doc.context.register(doc.context.stream(filler));
    doc.catalog.set(PDFName.of('SignDeskPadding'), ref);
    const saved = await doc.save({ useObjectStreams: false });
    if (saved.length === bytes) return saved;
    padding += bytes - saved.length;
  }
  throw new Error(`could not make a PDF of exactly ${bytes} bytes`);
}

/** The same PDF encrypted by qpdf (AES-256), with an owner and an optional user password. */
export function encryptPdf(pdf: Uint8Array, userPassword = 'user-secret'): Uint8Array {
  const dir = makeTempDir('signdesk-qpdf-');
  const input = path.join(dir, 'plain.pdf');
  const output = path.join(dir, 'encrypted.pdf');
  fs.writeFileSync(input, pdf);
  execFileSync('qpdf', ['--encrypt', userPassword, 'owner-secret', '256', '--', input, output]);
  const encrypted = fs.readFileSync(output);
  fs.rmSync(dir, { recursive: true, force: true });
  return encrypted;
}

/** The text of a PDF as poppler's pdftotext reads it. */
export function pdfText(pdf: Uint8Array): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
}

/** Page count and sizes as poppler's pdfinfo reads them. */
export function pdfPages(pdf: Uint8Array): number {
  const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8');
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}
