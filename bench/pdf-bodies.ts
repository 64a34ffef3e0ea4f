import type autocannon from 'autocannon';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

/**
 * The upload bodies of the benchmarks: a PDF of `pages` pages of text, padded with a stream of
 * `A`s to exactly `padTo` bytes (or unpadded when `padTo` is 0).
 */
export async function makePaddedPdf(pages: number, padTo: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index += 1) {
    const page = doc.addPage([595.28, 841.89]);
    for (let line = 0; line < 40; line += 1)
      page.drawText(`Page ${index + 1}, line ${line + 1}: villkor för avtalet`, {
        x: 50,
        y: 800 - line * 18,
        size: 11,
        font,
      });
  }
  if (padTo === 0) return doc.save();
  let padding = padTo - (await doc.save({ useObjectStreams: false })).length - 100;
  for (let round = 0; round < 8; round += 1) {
    const copy = await PDFDocument.load(await doc.save({ useObjectStreams: false }));
    copy.catalog.set(
      PDFName.of('Padding'),
      copy.context.register(copy.context.stream(new Uint8Array(padding).fill(0x41))),
    );
    const saved = await copy.save({ useObjectStreams: false });
    if (saved.length === padTo) return saved;
    padding += padTo - saved.length;
  }
  throw new Error('could not pad the PDF');
}

/** autocannon's options for uploads of `template`, 10 at a time, every body different: both upload benchmarks' load. */
export function uploadLoad(url: string, headers: Record<string, string>, template: Uint8Array): autocannon.Options {
  const next = uniqueBodies(template);
  return {
    url,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/pdf' },
    connections: 10,
    requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
  };
}

/** Every request gets different bytes (a counter inside the padding stream), as real uploads would. */
export function uniqueBodies(template: Uint8Array): () => Buffer {
  const base = Buffer.from(template);
  const marker = base.indexOf('AAAAAAAAAAAAAAAA');
  let counter = 0;
  return () => {
    const body = Buffer.from(base);
    body.write(String((counter += 1)).padStart(12, '0'), marker, 'latin1');
    return body;
  };
}
