import type { Collection } from '../../toolkit/interfaces/collection';
import { Aggregation } from '../../toolkit/query/aggregation';
import type { Filter } from '../../toolkit/query/filter';
import type { Projection } from '../../toolkit/query/projection';
import { defaultProjection, readRequestedProjection, withPrimaryKeys } from '../query/projection';
import type { DataRequest } from '../request/data-request';

/** The projection of a list/get route: requested or default, primary keys always added. */
export function readProjection(
  data: DataRequest,
  collection: Collection,
  key: string = collection.name,
): Projection {
  const header = data.request.headers['forest-projection'];
  const requested = readRequestedProjection(
    collection,
    data.query,
    typeof header === 'string' ? header : undefined,
    key,
  );
  return withPrimaryKeys(collection, requested ?? defaultProjection(collection));
}

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
