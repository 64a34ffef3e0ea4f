/**
 * Waiting work by source, taken round-robin: each source's tasks keep their order, and a source
 * with a hundred tasks waiting gets one turn in each round like a source with one. So a signing
 * link that floods the PDF sandbox delays its own work, not the office's uploads and seals.
 */
export type FairQueue<T> = {
  push(source: string, item: T): void;
  /** The next item by turn; undefined when nothing waits. */
  shift(): T | undefined;
  get length(): number;
  /** Takes one waiting item out of the line (its asker gave up); false if it was no longer waiting. */
  remove(item: T): boolean;
  /** Everything waiting, removed (the sandbox closes). */
  drain(): T[];
};

export function createFairQueue<T>(): FairQueue<T> {
  // A Map iterates in insertion order: a source that had its turn goes to the back.
  const bySource = new Map<string, T[]>();
  let length = 0;
  return {
    push(source, item) {
      const queue = bySource.get(source);
      if (queue) queue.push(item);
      else bySource.set(source, [item]);
      length += 1;
    },
    shift() {
      for (const [source, queue] of bySource) {
        const item = queue.shift();
        bySource.delete(source);
        if (queue.length > 0) bySource.set(source, queue);
        if (item !== undefined) {
          length -= 1;
          return item;
        }
      }
      return undefined;
    },
    get length() {
      return length;
    },
    remove(item) {
      for (const [source, queue] of bySource) {
        const index = queue.indexOf(item);
        if (index === -1) continue;
        queue.splice(index, 1);
        if (queue.length === 0) bySource.delete(source);
        length -= 1;
        return true;
      }
      return false;
    },
    drain() {
      const all = [...bySource.values()].flat();
      bySource.clear();
      length = 0;
      return all;
    },
  };
}
