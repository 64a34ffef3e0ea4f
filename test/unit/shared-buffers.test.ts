import { describe, expect, it } from 'vitest';
import { createSharedBufferPool, holdShared, releaseShared } from '../../server/core/shared-buffers';

describe('the upload memory (shared buffers)', () => {
  it('gives bytes of the asked length over shared memory, and nothing past the slot size', () => {
    const pool = createSharedBufferPool({ slotBytes: 1024, maxIdleSlots: 2 });
    const bytes = pool.take(100);
    expect(bytes?.length).toBe(100);
    expect(bytes?.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(pool.take(1025)).toBeUndefined();
    expect(pool.take(-1)).toBeUndefined();
    expect(pool.take(1.5)).toBeUndefined();
  });

  it('uses a slot again only when every holder has let it go', () => {
    const pool = createSharedBufferPool({ slotBytes: 1024, maxIdleSlots: 2 });
    const first = pool.take(10)!;
    const release = holdShared(first)!;
    releaseShared(first);
    // The worker still holds it: the next upload gets other memory.
    const second = pool.take(10)!;
    expect(second.buffer).not.toBe(first.buffer);
    release();
    const third = pool.take(10)!;
    expect(third.buffer).toBe(first.buffer);
  });

  it('clears what a longer body left past a shorter one, so that a slot holds only its own bytes', () => {
    const pool = createSharedBufferPool({ slotBytes: 64, maxIdleSlots: 1 });
    const long = pool.take(64)!;
    long.fill(0xaa);
    releaseShared(long);
    const short = pool.take(8)!;
    expect(short.buffer).toBe(long.buffer);
    expect([...new Uint8Array(short.buffer, 8)].every((byte) => byte === 0)).toBe(true);
  });

  it('keeps at most maxIdleSlots slots once a burst is over', () => {
    const pool = createSharedBufferPool({ slotBytes: 16, maxIdleSlots: 1 });
    const [a, b] = [pool.take(16)!, pool.take(16)!];
    releaseShared(a);
    releaseShared(b);
    const again = [pool.take(16)!, pool.take(16)!].map((bytes) => bytes.buffer);
    expect(again).toContain(a.buffer);
    expect(again).not.toContain(b.buffer);
  });

  it('holds nothing that is not a held slot: plain bytes, a slot given back, a second release', () => {
    const pool = createSharedBufferPool({ slotBytes: 16, maxIdleSlots: 1 });
    expect(holdShared(Buffer.alloc(4))).toBeUndefined();
    const bytes = pool.take(4)!;
    releaseShared(bytes);
    expect(holdShared(bytes)).toBeUndefined();
    releaseShared(bytes);
    const next = pool.take(4)!;
    const other = pool.take(4)!;
    expect(next.buffer).toBe(bytes.buffer);
    expect(other.buffer).not.toBe(bytes.buffer);
  });
});
