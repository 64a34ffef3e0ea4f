import { inflateSync } from 'node:zlib';

export type XrefEntry =
  | { kind: 'free'; generation: number }
  | { kind: 'in-use'; offset: number; generation: number }
  | { kind: 'compressed'; objectStream: number; index: number };

/** One cross-reference section (a table with its trailer, or a cross-reference stream) as written. */
export type XrefSection = {
  entries: Map<number, XrefEntry>;
  root: string | undefined;
  info: string | undefined;
  prev: number | undefined;
  hasEncrypt: boolean;
  /** The cross-reference stream's own object number (none for a table). */
  streamObject: number | undefined;
};

const MAX_ENTRIES = 1_000_000;
const MAX_STREAM_BYTES = 32 * 1024 * 1024;

/**
 * Reads the cross-reference section at `offset` by the letter of ISO 32000 7.5.4 and 7.5.8,
 * without repairing anything: it is what a reader takes as this revision's objects. Throws on
 * anything that is not a well-formed section.
 */
export function readXrefSection(bytes: Uint8Array, offset: number): XrefSection {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = buffer.subarray(offset, Math.min(buffer.length, offset + 64)).toString('latin1');
  if (/^xref\s/.test(head)) return readTable(buffer, offset);
  if (/^\d+\s+\d+\s+obj/.test(head)) return readStream(buffer, offset);
  throw new Error(`no cross-reference section at offset ${offset}`);
}

function readTable(buffer: Buffer, offset: number): XrefSection {
  const trailerAt = buffer.indexOf('trailer', offset, 'latin1');
  if (trailerAt < 0) throw new Error('a cross-reference table without a trailer');
  const lines = buffer
    .subarray(offset + 4, trailerAt)
    .toString('latin1')
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const entries = new Map<number, XrefEntry>();
  let number = 0;
  let left = 0;
  for (const line of lines) {
    const sub = /^(\d+)\s+(\d+)$/.exec(line);
    if (left === 0 && sub) {
      number = Number(sub[1]);
      left = Number(sub[2]);
      continue;
    }
    const entry = /^(\d{10})\s+(\d{5})\s+([nf])$/.exec(line);
    if (!entry || left === 0) throw new Error(`a malformed cross-reference line: ${line.slice(0, 40)}`);
    const generation = Number(entry[2]);
    entries.set(
      number,
      entry[3] === 'n' ? { kind: 'in-use', offset: Number(entry[1]), generation } : { kind: 'free', generation },
    );
    number += 1;
    left -= 1;
    if (entries.size > MAX_ENTRIES) throw new Error('too many cross-reference entries');
  }
  const dict = buffer.subarray(trailerAt, Math.min(buffer.length, trailerAt + 4096)).toString('latin1');
  const end = dict.indexOf('startxref');
  return { entries, streamObject: undefined, ...trailerFields(end > 0 ? dict.slice(0, end) : dict) };
}

function readStream(buffer: Buffer, offset: number): XrefSection {
  const streamAt = buffer.indexOf('stream', offset, 'latin1');
  if (streamAt < 0 || streamAt - offset > 4096) throw new Error('a cross-reference stream without its stream');
  const header = buffer.subarray(offset, streamAt).toString('latin1');
  const self = /^(\d+)\s+\d+\s+obj/.exec(header)!;
  if (!/\/Type\s*\/XRef\b/.test(header)) throw new Error('the object at startxref is not a cross-reference stream');
  const length = Number(/\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(header)?.[1] ?? NaN);
  const widths = /\/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(header)?.slice(1, 4).map(Number);
  if (!Number.isSafeInteger(length) || length > MAX_STREAM_BYTES || !widths || widths.some((w) => w > 8))
    throw new Error('a cross-reference stream without a usable /Length or /W');
  let dataAt = streamAt + 'stream'.length;
  if (buffer[dataAt] === 0x0d) dataAt += 1;
  if (buffer[dataAt] === 0x0a) dataAt += 1;
  let data: Buffer = buffer.subarray(dataAt, dataAt + length);
  const filter = /\/Filter\s*\[?\s*\/(\w+)/.exec(header)?.[1];
  if (filter === 'FlateDecode') data = inflateSync(data, { maxOutputLength: MAX_STREAM_BYTES });
  else if (filter) throw new Error(`a cross-reference stream with the filter /${filter}`);
  const predictor = Number(/\/Predictor\s+(\d+)/.exec(header)?.[1] ?? 1);
  const rowWidth = widths[0]! + widths[1]! + widths[2]!;
  if (predictor >= 10) data = unpredictPng(data, Number(/\/Columns\s+(\d+)/.exec(header)?.[1] ?? rowWidth));
  const size = Number(/\/Size\s+(\d+)/.exec(header)?.[1] ?? 0);
  const index = /\/Index\s*\[([\d\s]*)\]/.exec(header)?.[1]?.trim().split(/\s+/).map(Number) ?? [0, size];

  const entries = new Map<number, XrefEntry>();
  let row = 0;
  const field = (at: number, width: number, fallback: number) => {
    if (width === 0) return fallback;
    let value = 0;
    for (let i = 0; i < width; i += 1) value = value * 256 + data[at + i]!;
    return value;
  };
  for (let pair = 0; pair + 1 < index.length; pair += 2) {
    for (let n = 0; n < index[pair + 1]!; n += 1) {
      const at = row * rowWidth;
      if (at + rowWidth > data.length) throw new Error('a cross-reference stream shorter than its /Index');
      const type = field(at, widths[0]!, 1);
      const second = field(at + widths[0]!, widths[1]!, 0);
      const third = field(at + widths[0]! + widths[1]!, widths[2]!, 0);
      const number = index[pair]! + n;
      if (type === 0) entries.set(number, { kind: 'free', generation: third });
      else if (type === 1) entries.set(number, { kind: 'in-use', offset: second, generation: third });
      else if (type === 2) entries.set(number, { kind: 'compressed', objectStream: second, index: third });
      row += 1;
      if (entries.size > MAX_ENTRIES) throw new Error('too many cross-reference entries');
    }
  }
  return { entries, streamObject: Number(self[1]), ...trailerFields(header) };
}

function trailerFields(dict: string): Pick<XrefSection, 'root' | 'info' | 'prev' | 'hasEncrypt'> {
  const ref = (key: string) => new RegExp(`/${key}\\s+(\\d+\\s+\\d+)\\s+R`).exec(dict)?.[1]?.replace(/\s+/, ' ');
  const prev = /\/Prev\s+(\d+)/.exec(dict)?.[1];
  return {
    root: ref('Root'),
    info: ref('Info'),
    prev: prev === undefined ? undefined : Number(prev),
    hasEncrypt: /\/Encrypt\b/.test(dict),
  };
}

/** PNG predictors (ISO 32000 7.4.4.4): one filter-type byte before each row. */
function unpredictPng(data: Buffer, columns: number): Buffer {
  const rows = Math.floor(data.length / (columns + 1));
  const out = Buffer.alloc(rows * columns);
  for (let r = 0; r < rows; r += 1) {
    const type = data[r * (columns + 1)]!;
    for (let c = 0; c < columns; c += 1) {
      const raw = data[r * (columns + 1) + 1 + c]!;
      const left = c > 0 ? out[r * columns + c - 1]! : 0;
      const up = r > 0 ? out[(r - 1) * columns + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1]! : 0;
      let value = raw;
      if (type === 1) value = raw + left;
      else if (type === 2) value = raw + up;
      else if (type === 3) value = raw + Math.floor((left + up) / 2);
      else if (type === 4) value = raw + paeth(left, up, upLeft);
      out[r * columns + c] = value & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
