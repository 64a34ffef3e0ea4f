import { PDFDocument, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readStreamsInPlace } from '../../server/pdf/sandbox/read-in-place';
import { makePdf } from '../helpers/pdfs';

const streamsOf = (doc: PDFDocument) =>
  doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter((object): object is PDFRawStream => object instanceof PDFRawStream);

describe("the PDF sandbox's reading of streams in place", () => {
  it('keeps every stream as a view of the bytes read, and the PDF writes out the same', async () => {
    const bytes = await makePdf({ pages: 3 });
    const copied = streamsOf(await PDFDocument.load(bytes));
    expect(copied.length).toBeGreaterThan(0);
    expect(copied.every((stream) => stream.contents.buffer !== bytes.buffer)).toBe(true);

    readStreamsInPlace();
    const doc = await PDFDocument.load(bytes);
    const inPlace = streamsOf(doc);
    expect(inPlace.map((stream) => Buffer.from(stream.contents))).toEqual(
      copied.map((stream) => Buffer.from(stream.contents)),
    );
    expect(inPlace.every((stream) => stream.contents.buffer === bytes.buffer)).toBe(true);
    const again = await PDFDocument.load(await doc.save());
    expect(again.getPageCount()).toBe(3);
    expect(streamsOf(again).map((stream) => Buffer.from(stream.contents))).toEqual(
      streamsOf(await PDFDocument.load(await (await PDFDocument.load(bytes)).save())).map((stream) =>
        Buffer.from(stream.contents),
      ),
    );
  });
});
