import { describe, expect, it } from 'vitest';
import { copyBytes } from '../../server/core/copy-bytes';

const shared = (length: number) => Buffer.from(new SharedArrayBuffer(length));

describe('copyBytes', () => {
  it('copies a piece into shared memory at an offset, leaving the bytes around it alone', () => {
    const target = shared(10).fill(0xee);
    expect(copyBytes(target, Buffer.from([1, 2, 3]), 4)).toBe(3);
    expect([...target]).toEqual([0xee, 0xee, 0xee, 0xee, 1, 2, 3, 0xee, 0xee, 0xee]);
  });

  it('copies out of shared memory into a plain buffer', () => {
    const source = new Uint8Array(new SharedArrayBuffer(4)).fill(7);
    const target = Buffer.alloc(6);
    expect(copyBytes(target, source, 0)).toBe(4);
    expect([...target]).toEqual([7, 7, 7, 7, 0, 0]);
  });

  it('copies only what fits, and nothing at or past the end or from an empty piece', () => {
    const target = shared(5);
    expect(copyBytes(target, Buffer.from('abcdefgh'), 2)).toBe(3);
    expect(target.toString('latin1')).toBe('\0\0abc');
    expect(copyBytes(target, Buffer.from('z'), 5)).toBe(0);
    expect(copyBytes(target, Buffer.alloc(0), 1)).toBe(0);
    expect(target.toString('latin1')).toBe('\0\0abc');
  });

  it('copies a 2 MiB body piece by piece, as an upload arrives', () => {
    const body = Buffer.alloc(2 * 1024 * 1024);
    for (let index = 0; index < body.length; index += 1) body[index] = (index * 31) % 251;
    const target = shared(body.length);
    let received = 0;
    for (let start = 0; start < body.length; start += 65_536)
      received += copyBytes(target, body.subarray(start, start + 65_536), received);
    expect(received).toBe(body.length);
    expect(target.equals(body)).toBe(true);
  });
});
