import type { Collection } from '../../toolkit/interfaces/collection';

/** Entries kept per collection before the oldest are dropped. */
const MAX_ENTRIES = 500;

/** A memo of values computed from request text against a collection. */
export type PerCollectionCache<T> = (collection: Collection, key: string, compute: () => T) => T;

/**
 * Memoizes a pure parse of request text against a collection (filters, projections, sorts): the
 * same query string from the same front-end page is parsed once. Values must be immutable;
 * failures are not cached (they throw). Bounded, oldest entries dropped first; keyed by the
 * collection object, so a restart (new collections) starts empty.
 */
export function createPerCollectionCache<T>(): PerCollectionCache<T> {
  const caches = new WeakMap<Collection, Map<string, T>>();
  return (collection, key, compute) => {
    let cache = caches.get(collection);
    if (!cache) {
      cache = new Map();
      caches.set(collection, cache);
    }
    if (cache.has(key)) return cache.get(key) as T;
    const value = compute();
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, value);
    return value;
  };
}
