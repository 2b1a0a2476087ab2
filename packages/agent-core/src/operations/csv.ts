import { getCollectionPlan } from './records/collection-plan';
import type { Collection } from '../toolkit/interfaces/collection';
import { ConditionTreeFactory } from '../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../toolkit/query/condition-tree/condition-tree-leaf';
import { Page } from '../toolkit/query/page';
import { PaginatedFilter } from '../toolkit/query/paginated-filter';
import type { Filter } from '../toolkit/query/filter';
import type { Projection } from '../toolkit/query/projection';
import type { Sort } from '../toolkit/query/sort';
import type { RecordData } from '../toolkit/record/record-utils';
import { reportActivity } from './activity-log';
import type { OperationCaller, OperationContext } from './context';
import { buildFilter, type FilterParameters } from './filter';
import type { ParsedRequest } from './request';

/** Rows fetched per query while exporting (§8.14). */
export const CSV_BATCH_SIZE = 1000;

export interface ExportRequest {
  readonly filter: FilterParameters;
}

/** Reads the exported records in batches of {@link CSV_BATCH_SIZE}. */
export interface ExportReader {
  /**
   * The batches of `projection` (primary keys added), sorted by `sort` or by primary key. Each
   * batch is read when the previous one has been consumed; the last may be empty.
   */
  batches(projection: Projection, sort: Sort | null): AsyncGenerator<RecordData[]>;
}

/**
 * Opens a CSV export (agent-http-protocol §8.14): needs `browse` and `export`; the export is
 * logged once opened. When rows are sorted by a single primary key (the default), batches are read
 * by key ("after the last key seen") rather than by offset, so a million-row export does not
 * rescan the rows already read.
 */
export async function exportRecords(
  context: OperationContext,
  who: OperationCaller,
  collection: Collection,
  parse: ParsedRequest<ExportRequest>,
): Promise<ExportReader> {
  const { permissions } = context;
  await permissions.assertCollectionRight(who.claims, collection.name, 'browse');
  await permissions.assertCollectionRight(who.claims, collection.name, 'export');
  const filter = await buildFilter(context, who, collection, parse().filter);
  reportActivity(context, who, 'export', collection.name);
  return readExport(who, collection, filter);
}

/** Reads the records of `filter` for an export whose rights are checked. */
export function readExport(
  who: OperationCaller,
  collection: Collection,
  filter: Filter,
): ExportReader {
  return {
    async *batches(projection, requestedSort) {
      const plan = getCollectionPlan(collection);
      const keyField = collection.schema.fields[plan.primaryKeys[0] ?? ''];
      const keyset =
        !requestedSort &&
        plan.defaultSort !== null &&
        plan.primaryKeys.length === 1 &&
        keyField?.type === 'Column' &&
        keyField.filterOperators.has('GreaterThan');
      const sort = requestedSort ?? plan.defaultSort;
      const fetched = projection.union(plan.primaryKeys);
      const readBatch = (skip: number, lastKey: unknown): Promise<RecordData[]> =>
        collection.list(
          who.caller,
          new PaginatedFilter({
            conditionTree:
              keyset && lastKey !== undefined
                ? ConditionTreeFactory.intersect(
                    filter.conditionTree,
                    new ConditionTreeLeaf(plan.primaryKeys[0] as string, 'GreaterThan', lastKey),
                  )
                : filter.conditionTree,
            search: filter.search,
            searchExtended: filter.searchExtended,
            segment: filter.segment,
            liveQuerySegment: filter.liveQuerySegment,
            sort,
            page: new Page(keyset ? 0 : skip, CSV_BATCH_SIZE),
          }),
          fetched,
        );
      let skip = 0;
      let batch = await readBatch(0, undefined);
      for (;;) {
        yield batch;
        if (batch.length < CSV_BATCH_SIZE) return;
        skip += batch.length;
        batch = await readBatch(skip, batch[batch.length - 1]?.[plan.primaryKeys[0] as string]);
      }
    },
  };
}
