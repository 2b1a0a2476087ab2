/**
 * A cache of fetched values by key: a value lives `ttlMs`, concurrent reads of a missing key share
 * one fetch, failed fetches are not cached, and an invalidation during a fetch keeps its result
 * out of the cache (it may predate the change that caused the invalidation).
 */
export class ResourceCache<K, V> {
  /** Each value with the settled promise every read hands out while it is cached. */
  private readonly entries = new Map<K, { promise: Promise<V>; expiresAt: number }>();
  private readonly pending = new Map<K, Promise<V>>();
  private readonly generations = new Map<K, number>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached value, or the result of `fetch` (shared with concurrent callers). While a value is
   * cached every read returns the same promise, so a caller can remember what it resolved to.
   */
  get(key: K, fetch: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.promise;
    const running = this.pending.get(key);
    if (running) return running;

    const startedAt = this.generationOf(key);
    const promise = fetch().then(
      (value) => {
        if (this.pending.get(key) === promise) this.pending.delete(key);
        if (this.generationOf(key) === startedAt) {
          this.entries.set(key, { promise, expiresAt: this.now() + this.ttlMs });
        }
        return value;
      },
      (error: unknown) => {
        if (this.pending.get(key) === promise) this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, promise);
    return promise;
  }

  /** Drops one key, or every key when none is given; the next read fetches again. */
  invalidate(key?: K): void {
    if (key === undefined) {
      this.entries.clear();
      this.pending.clear();
      this.generations.clear();
      this.generation += 1;
      return;
    }
    this.entries.delete(key);
    this.pending.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  private generationOf(key: K): string {
    return `${this.generation}:${this.generations.get(key) ?? 0}`;
  }
}
