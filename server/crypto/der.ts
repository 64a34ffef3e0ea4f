/** One DER element: where its header and contents sit in the bytes. */
export type DerElement = { tag: number; start: number; headerLength: number; length: number; end: number };

/** Reads the element at `start` (definite lengths only: DER has no other). */
export function readDerElement(bytes: Uint8Array, start: number): DerElement {
  if (start + 2 > bytes.length) throw new Error('DER: truncated header');
  const tag = bytes[start]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not expected here');
  const first = bytes[start + 1]!;
  let length = first;
  let headerLength = 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: indefinite or oversized length');
    length = 0;
    for (let index = 0; index < count; index += 1) length = length * 256 + bytes[start + 2 + index]!;
    headerLength += count;
  }
  const end = start + headerLength + length;
  if (end > bytes.length) throw new Error('DER: element runs past the end');
  return { tag, start, headerLength, length, end };
}

/** The elements inside a constructed element, in order. */
export function derChildren(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const children: DerElement[] = [];
  let at = parent.start + parent.headerLength;
  while (at < parent.end) {
    const child = readDerElement(bytes, at);
    children.push(child);
    at = child.end;
  }
  return children;
}

export function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const octets: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) octets.unshift(rest % 256);
  return Buffer.from([0x80 | octets.length, ...octets]);
}

/** A DER element of this tag around `contents`. */
export function derWrap(tag: number, contents: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), derLength(contents.length), contents]);
}
