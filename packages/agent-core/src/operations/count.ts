import type { Collection } from '../toolkit/interfaces/collection';
import { Aggregation } from '../toolkit/query/aggregation';
import type { Filter } from '../toolkit/query/filter';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter, type FilterParameters } from './filter';
import type { ParsedRequest } from './request';

export interface CountRequest {
  readonly filter: FilterParameters;
}

/** `{count}`, or the disabled-count answer of §8.2 for a collection that is not countable. */
export type CountResult = { count: number } | { meta: { count: 'deactivated' } };

/** The number of records within the caller's scope (agent-http-protocol §8.2): needs `browse`. */
export async function countRecords(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<CountRequest>,
): Promise<CountResult> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'browse');
  const filter = await buildFilter(context, who, collection, parse().filter);
  return countIn(who, collection, filter);
}

const COUNT = new Aggregation({ operation: 'Count' });

/** `{count}` of a filter for a countable collection, else the disabled-count answer of §8.2. */
export async function countIn(
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
): Promise<CountResult> {
  if (!collection.schema.countable) return { meta: { count: 'deactivated' } };
  const [row] = await collection.aggregate(who.caller, filter, COUNT);
  return { count: Number(row?.value ?? 0) };
}
