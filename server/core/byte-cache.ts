/**
 * Values kept by key in memory up to a total size: the least recently used go first when a new
 * one would pass `maxBytes` (rendered page images, a party's covered document).
 */
export function createByteCache<V>(maxBytes: number, sizeOf: (value: V) => number) {
  const entries = new Map<string, V>();
  let total = 0;
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key: string, value: V): void {
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        total -= sizeOf(old);
      }
      entries.set(key, value);
      total += sizeOf(value);
      for (const [oldest, entry] of entries) {
        if (total <= maxBytes) break;
        entries.delete(oldest);
        total -= sizeOf(entry);
      }
    },
  };
}

export type ByteCache<V> = ReturnType<typeof createByteCache<V>>;
