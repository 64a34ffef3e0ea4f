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

  it('takes out one waiting item, keeping the turns of the rest', () => {
    const queue = createFairQueue<string>();
    queue.push('party:7', 'page 2');
    queue.push('party:7', 'page 3');
    queue.push('office', 'seal');
    expect(queue.remove('page 2')).toBe(true);
    expect(queue.remove('page 2')).toBe(false);
    expect(queue.length).toBe(2);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['page 3', 'seal', undefined]);
  });

  it('gives everything waiting back when drained', () => {
    const queue = createFairQueue<number>();
    queue.push('a', 1);
    queue.push('b', 2);
    expect(queue.drain().sort()).toEqual([1, 2]);
    expect(queue.length).toBe(0);
  });
});
