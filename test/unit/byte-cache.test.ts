import { describe, expect, it } from 'vitest';
import { createByteCache } from '../../server/core/byte-cache';

describe('the byte cache of page images and covered documents', () => {
  const bytes = (size: number) => Buffer.alloc(size);
  it('lets the least recently used go first once the total passes its size', () => {
    const cache = createByteCache<Buffer>(10, (value) => value.length);
    cache.set('a', bytes(4));
    cache.set('b', bytes(4));
    expect(cache.get('a')?.length).toBe(4); // a is now the most recent
    cache.set('c', bytes(4));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map((value) => value?.length)).toEqual([4, undefined, 4]);
  });
  it('counts a value set again under its key once, and keeps nothing larger than its size', () => {
    const cache = createByteCache<Buffer>(10, (value) => value.length);
    cache.set('a', bytes(6));
    cache.set('a', bytes(6));
    expect(cache.get('a')?.length).toBe(6);
    cache.set('b', bytes(11));
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, undefined]);
  });
});
