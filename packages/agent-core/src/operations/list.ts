import type { Collection } from '../toolkit/interfaces/collection';
import type { Filter } from '../toolkit/query/filter';
import type { Page } from '../toolkit/query/page';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import type { Projection } from '../toolkit/query/projection';
import type { Sort } from '../toolkit/query/sort';
import type { RecordData } from '../toolkit/record/record-utils';
import { readActivity, reportActivity } from './activity-log';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter, type FilterParameters } from './filter';
import { getCollectionPlan } from './records/collection-plan';
import type { ParsedRequest } from './request';

export interface ListRequest {
  readonly filter: FilterParameters;
  /** The fields to read (primary keys included). */
  readonly projection: Projection;
  readonly sort: Sort | null;
  readonly page: Page;
}

export interface ListResult {
  readonly records: RecordData[];
  /** The filter the records were read with (its `search` drives the serializer's highlights). */
  readonly filter: Filter;
}

/**
 * A page of records within the caller's scope (agent-http-protocol §8.1): needs `browse`. Without
 * a sort, records come by primary key, so a page holds the same rows whatever the storage order.
 */
export async function listRecords(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<ListRequest>,
): Promise<ListResult> {
  await context.permissions.assertCollectionRight(who.claims, collection.name, 'browse');
  const request = parse();
  const filter = await buildFilter(context, who, collection, request.filter);
  const records = await collection.list(
    who.caller,
    paginated(filter, request.sort ?? getCollectionPlan(collection).defaultSort, request.page),
    request.projection,
  );
  reportActivity(context, who, readActivity(request.filter), collection.name);
  return { records, filter };
}

/** A filter's parts with a sort and a page, in one object. */
export function paginated(filter: Filter, sort: Sort | null, page: Page): PaginatedFilter {
  return new PaginatedFilter({
    conditionTree: filter.conditionTree,
    search: filter.search,
    searchExtended: filter.searchExtended,
    segment: filter.segment,
    liveQuerySegment: filter.liveQuerySegment,
    sort,
    page,
  });
}
