/**
 * A bounded map from query shapes to compiled statements, least recently used first out. Keys
 * are built by {@link shapeKey}, so two shapes never share an entry.
 */
export class StatementCache<T> {
  private readonly entries = new Map<string, T>();
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
    // Re-inserting moves the key to the end of the Map's order: the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: T): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * One key for a list of parts, each prefixed by its length so that no two different lists give
 * the same key whatever characters identifiers or SQL fragments hold.
 */
export function shapeKey(parts: readonly string[]): string {
  let key = '';
  for (const part of parts) key += `${part.length}:${part}`;
  return key;
}
