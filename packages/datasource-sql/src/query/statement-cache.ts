/**
 * A bounded map from query shapes to compiled statements, least recently used first out. Keys
 * are built by {@link shapeKey}, so two shapes never share an entry.
 */
export class StatementCache<T> {
  private readonly entries = new Map<string, { value: T; used: number }>();
  private clock = 0;
  /** Lookups that found a statement, and lookups that did not (for tests and benchmarks). */
  hits = 0;
  misses = 0;

  constructor(
    /** Most entries kept; 0 disables the cache. */
    readonly capacity: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    // A hit only stamps the entry: the least recently used one is looked for when one must go.
    entry.used = ++this.clock;
    return entry.value;
  }

  set(key: string, value: T): void {
    if (this.capacity <= 0) return;
    if (!this.entries.has(key) && this.entries.size >= this.capacity) this.evictOldest();
    this.entries.set(key, { value, used: ++this.clock });
  }

  /** Removes `key`'s entry and answers its value (`undefined` when there was none). */
  delete(key: string): T | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry?.value;
  }

  clear(): void {
    this.entries.clear();
  }

  /** The key used longest ago (a scan: for inserts into a full cache, not for lookups). */
  leastRecentlyUsed(): string | undefined {
    let oldest: string | undefined;
    let used = Infinity;
    for (const [key, entry] of this.entries) {
      if (entry.used < used) {
        used = entry.used;
        oldest = key;
      }
    }
    return oldest;
  }

  private evictOldest(): void {
    const oldest = this.leastRecentlyUsed();
    if (oldest !== undefined) this.entries.delete(oldest);
  }
}

/**
 * One key for lists of parts: their JSON text, so that no two different lists give the same key
 * whatever characters identifiers or SQL fragments hold (written in one flat string, where
 * concatenating the parts made a string per part).
 */
export function shapeKey(...lists: readonly (readonly string[])[]): string {
  return JSON.stringify(lists);
}
