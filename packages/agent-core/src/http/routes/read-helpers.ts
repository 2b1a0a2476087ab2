import type { Collection } from '../../toolkit/interfaces/collection';
import type { Projection } from '../../toolkit/query/projection';
import { createPerCollectionCache } from '../../operations/query/per-collection-cache';
import { defaultProjection, withPrimaryKeys } from '../../operations/query/projection';
import { readRequestedProjection } from '../../protocol/query/projection';
import type { DataRequest } from '../request/data-request';

/** The projection of a list/get route: requested or default, primary keys always added. */
export function readProjection(
  data: DataRequest,
  collection: Collection,
  key: string = collection.name,
): Projection {
  const rawHeader = data.request.headers['forest-projection'];
  const header = typeof rawHeader === 'string' ? rawHeader : undefined;
  // No header and no `fields[…]` (a plain get): the key itself, no string built per request. The
  // header follows \u0001, each field list \u0000 (neither occurs in a header), so keys stay apart.
  let cacheKey = header ? `${key}\u0001${header}` : key;
  for (const name in data.query) {
    if (name.startsWith('fields[')) cacheKey += `\u0000${name}=${data.query[name]}`;
  }
  return projectionCache(collection, cacheKey, () => {
    const requested = readRequestedProjection(collection, data.query, header, key);
    return withPrimaryKeys(collection, requested ?? defaultProjection(collection));
  });
}

/** Each distinct requested projection is computed once per collection (they are not mutated). */
const projectionCache = createPerCollectionCache<Projection>();
