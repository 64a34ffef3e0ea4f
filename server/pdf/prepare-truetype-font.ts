/** Layout tables: parsing them costs fontkit ~50 ms per document and a font, for kerning and ligatures. */
const DROPPED_TABLES = new Set(['GSUB', 'GPOS', 'GDEF', 'STAT']);

/**
 * Makes a TrueType font cheap and safe for pdf-lib to embed as a subset, once per process:
 *
 * - The OpenType layout tables are dropped: fontkit then lays text out from cmap and hmtx
 *   alone (no kerning, no ligatures), which is plenty for names, dates and an audit trail
 *   and makes each signed PDF ~100x cheaper. With `keepLayout` (the Arabic face) GSUB and GDEF
 *   stay: fontkit's Arabic shaper picks each letter's joining form from them.
 * - @pdf-lib/fontkit's subsetter writes the subset's `loca` table in the short format (offsets / 2)
 * while copying each glyph's bytes as they are, so any glyph of odd length in a font with a
 * long `loca` (Noto Sans has many) shifts every later glyph and renders as nothing. Padding each
 * glyph to an even length once, before the font reaches pdf-lib, makes every offset even and the
 * subsets correct. Tables other than glyf, loca and head are copied unchanged.
 */
export function prepareTrueTypeFont(font: Buffer, options: { keepLayout?: boolean } = {}): Buffer {
  const tables = readTableDirectory(font);
  // A face for a script that joins its letters (Arabic) keeps GSUB: its forms are the letters.
  for (const tag of DROPPED_TABLES) if (!options.keepLayout || tag === 'GPOS' || tag === 'STAT') tables.delete(tag);
  const head = tables.get('head');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  const maxp = tables.get('maxp');
  if (!head || !loca || !glyf || !maxp) return writeFont(font, tables, new Map());

  const isLong = font.readInt16BE(head.offset + 50) === 1;
  const glyphCount = font.readUInt16BE(maxp.offset + 4);
  const offsetAt = (index: number) =>
    isLong ? font.readUInt32BE(loca.offset + index * 4) : font.readUInt16BE(loca.offset + index * 2) * 2;
  let isAligned = true;
  for (let index = 0; index <= glyphCount && isAligned; index += 1) isAligned = offsetAt(index) % 2 === 0;
  if (isAligned) return writeFont(font, tables, new Map());

  const glyphs: Buffer[] = [];
  const newLoca = Buffer.alloc((glyphCount + 1) * 4);
  let position = 0;
  for (let index = 0; index < glyphCount; index += 1) {
    const data = font.subarray(glyf.offset + offsetAt(index), glyf.offset + offsetAt(index + 1));
    const padded = data.length % 2 === 0 ? data : Buffer.concat([data, Buffer.alloc(1)]);
    newLoca.writeUInt32BE(position, index * 4);
    glyphs.push(padded);
    position += padded.length;
  }
  newLoca.writeUInt32BE(position, glyphCount * 4);

  const newHead = Buffer.from(font.subarray(head.offset, head.offset + head.length));
  newHead.writeInt16BE(1, 50);
  newHead.writeUInt32BE(0, 8);
  const replaced = new Map<string, Buffer>([
    ['glyf', Buffer.concat(glyphs)],
    ['loca', newLoca],
    ['head', newHead],
  ]);
  return writeFont(font, tables, replaced);
}

type TableRecord = { tag: string; offset: number; length: number };

function readTableDirectory(font: Buffer): Map<string, TableRecord> {
  const count = font.readUInt16BE(4);
  const tables = new Map<string, TableRecord>();
  for (let index = 0; index < count; index += 1) {
    const at = 12 + index * 16;
    const tag = font.toString('latin1', at, at + 4);
    tables.set(tag, { tag, offset: font.readUInt32BE(at + 8), length: font.readUInt32BE(at + 12) });
  }
  return tables;
}

function writeFont(font: Buffer, tables: Map<string, TableRecord>, replaced: Map<string, Buffer>): Buffer {
  const records = [...tables.values()];
  const header = Buffer.alloc(12 + records.length * 16);
  font.copy(header, 0, 0, 4);
  // numTables, then searchRange, entrySelector and rangeShift derived from it
  const power = 2 ** Math.floor(Math.log2(records.length));
  header.writeUInt16BE(records.length, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(records.length * 16 - power * 16, 10);
  const bodies: Buffer[] = [];
  let offset = header.length;
  records.forEach((record, index) => {
    const data = replaced.get(record.tag) ?? font.subarray(record.offset, record.offset + record.length);
    const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
    const at = 12 + index * 16;
    header.write(record.tag, at, 'latin1');
    header.writeUInt32BE(checksum(padded), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    bodies.push(padded);
    offset += padded.length;
  });
  const result = Buffer.concat([header, ...bodies]);
  const headAt = header.readUInt32BE(12 + records.findIndex((record) => record.tag === 'head') * 16 + 8);
  result.writeUInt32BE((0xb1b0afba - checksum(result)) >>> 0, headAt + 8);
  return result;
}

function checksum(data: Buffer): number {
  let sum = 0;
  for (let at = 0; at + 4 <= data.length; at += 4) sum = (sum + data.readUInt32BE(at)) >>> 0;
  return sum;
}
