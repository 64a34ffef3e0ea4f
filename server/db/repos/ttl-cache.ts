/**
 * A small read-through cache for rows that every request reads (the calling token and user).
 * Writes in this process invalidate at once; the TTL bounds how long a change made by another
 * process (the CLI, another instance) can go unseen. Misses are never cached, so new rows show
 * up at once.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  /** Bumped by every clear: a load that began before a write does not cache what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, load: () => Promise<V | undefined>, now = Date.now()): Promise<V | undefined> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value === undefined) {
      this.entries.delete(key);
      return undefined;
    }
    if (generation !== this.generation) return value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
    return value;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
