import zlib from 'node:zlib';
import type { Request, Response } from 'express';

/** A document made once, with its compressed forms made on first demand and kept beside it. */
export type CompressibleText = { text: string; br?: Buffer; gzip?: Buffer };

export function compressible(text: string): CompressibleText {
  return { text };
}

/**
 * Sends a large document (the API docs page is ~700 KB, the OpenAPI document ~650 KB) brotli- or
 * gzip-compressed when the client takes it, each form compressed once.
 */
export function sendCompressed(req: Request, res: Response, type: string, doc: CompressibleText): void {
  res.type(type);
  res.setHeader('Vary', 'Accept-Encoding');
  // Brotli wherever it is taken: browsers list gzip first with the same weight.
  const accepted = req.acceptsEncodings();
  if (accepted.includes('br')) {
    doc.br ??= zlib.brotliCompressSync(doc.text, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: doc.text.length },
    });
    res.setHeader('Content-Encoding', 'br');
    res.send(doc.br);
    return;
  }
  if (accepted.includes('gzip')) {
    doc.gzip ??= zlib.gzipSync(doc.text, { level: 9 });
    res.setHeader('Content-Encoding', 'gzip');
    res.send(doc.gzip);
    return;
  }
  res.send(doc.text);
}
