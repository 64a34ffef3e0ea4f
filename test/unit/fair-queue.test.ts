import { describe, expect, it } from 'vitest';
import { createFairQueue } from '../../server/pdf/sandbox/fair-queue';

describe("the PDF sandbox's waiting line", () => {
  it('takes each source in turn, keeping each source’s own order', () => {
    const queue = createFairQueue<string>();
    for (let n = 1; n <= 4; n += 1) queue.push('party:7', `flood ${n}`);
    queue.push('office', 'upload');
    queue.push('office', 'seal');
    queue.push('party:9', 'page');
    expect(queue.length).toBe(7);
    const order = Array.from({ length: 7 }, () => queue.shift());
    expect(order).toEqual(['flood 1', 'upload', 'page', 'flood 2', 'seal', 'flood 3', 'flood 4']);
    expect(queue.shift()).toBeUndefined();
    expect(queue.length).toBe(0);
  });

  it('gives everything waiting back when drained', () => {
    const queue = createFairQueue<number>();
    queue.push('a', 1);
    queue.push('b', 2);
    expect(queue.drain().sort()).toEqual([1, 2]);
    expect(queue.length).toBe(0);
  });
});
