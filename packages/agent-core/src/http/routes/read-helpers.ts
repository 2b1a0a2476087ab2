import type { Collection } from '../../toolkit/interfaces/collection';
import { Aggregation } from '../../toolkit/query/aggregation';
import type { Filter } from '../../toolkit/query/filter';
import type { Projection } from '../../toolkit/query/projection';
import { createPerCollectionCache } from '../cache/per-collection-cache';
import { defaultProjection, readRequestedProjection, withPrimaryKeys } from '../query/projection';
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

const COUNT = new Aggregation({ operation: 'Count' });

/** `{count}` for a countable collection, else the disabled-count answer of §8.2. */
export async function countAnswer(
  data: DataRequest,
  collection: Collection,
  filter: Filter,
): Promise<{ count: number } | { meta: { count: 'deactivated' } }> {
  if (!collection.schema.countable) return { meta: { count: 'deactivated' } };
  const [row] = await collection.aggregate(data.caller, filter, COUNT);
  return { count: Number(row?.value ?? 0) };
}
