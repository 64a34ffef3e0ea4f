import { deflateSync } from 'node:zlib';
import { PDFContentStream, PDFName, PDFNumber, PDFRawStream, type PDFContext, type PDFObject } from 'pdf-lib';

/**
 * pdf-lib compresses with pako (JavaScript); zlib in Node does the same work natively, several
 * times faster, and compression is a good part of sealing a document. These two hooks send
 * the streams we add through it: the font subsets pdf-lib embeds (context.flateStream, on our
 * own document's context only) and the content streams we draw (at write time).
 */
export function useNativeDeflate(context: PDFContext): void {
  context.flateStream = (contents, dict = {}) =>
    context.stream(deflateSync(contents as Uint8Array), { ...dict, Filter: 'FlateDecode' });
}

/** A drawn content stream as a raw stream compressed by zlib; any other object as it is. */
export function withNativeDeflate(object: PDFObject): PDFObject {
  if (!(object instanceof PDFContentStream)) return object;
  const data = deflateSync(object.getUnencodedContents());
  const dict = object.dict.clone();
  dict.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
  dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
  return PDFRawStream.of(dict, data);
}
