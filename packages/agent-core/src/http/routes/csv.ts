import { stringify } from 'csv-stringify/sync';

import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../../toolkit/query/condition-tree/condition-tree-leaf';
import type { Filter } from '../../toolkit/query/filter';
import { Page } from '../../toolkit/query/page';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { getFieldValue, type RecordData } from '../../toolkit/record/record-utils';
import { Sort } from '../../toolkit/query/sort';
import { defaultProjection, readRequestedProjection } from '../query/projection';
import { parseSort } from '../query/sort';
import { getCollectionPlan } from '../serializer/collection-plan';
import type { DataRequest } from '../request/data-request';
import type { HttpResponse } from '../request/node-http';

/** Rows fetched per query while exporting (§8.14). */
export const CSV_BATCH_SIZE = 1000;

/** Renders one cell (§8.14): empty for null, arrays comma-joined, objects as JSON, dates ISO. */
export function renderCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(renderCell).join(',');
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Streams a CSV export (§8.14) in batches of {@link CSV_BATCH_SIZE}: only one batch is held in
 * memory, and the next query waits for the socket to drain. When rows are sorted by a single
 * primary key (the default), batches are read by key ("after the last key seen") rather than by
 * offset, so a million-row export does not rescan the rows already sent.
 */
export async function streamCsv(
  data: DataRequest,
  response: HttpResponse,
  collection: Collection,
  filter: Filter,
  projectionKey: string,
): Promise<void> {
  const header = data.query.header;
  if (header === undefined) {
    throw new ValidationError('Missing header: the CSV export needs "header=<label>,<label>,..."');
  }
  const headerValue = data.request.headers['forest-projection'];
  const projection =
    readRequestedProjection(
      collection,
      data.query,
      typeof headerValue === 'string' ? headerValue : undefined,
      projectionKey,
    ) ?? defaultProjection(collection);
  const plan = getCollectionPlan(collection);
  const requestedSort = parseSort(collection, data.query.sort);
  const keyField = collection.schema.fields[plan.primaryKeys[0] ?? ''];
  const keyset =
    !requestedSort &&
    plan.primaryKeys.length === 1 &&
    keyField?.type === 'Column' &&
    keyField.filterOperators.has('GreaterThan');
  const sort =
    requestedSort ?? new Sort(...plan.primaryKeys.map((field) => ({ field, ascending: true })));
  const fetched = projection.union(plan.primaryKeys);

  const readBatch = (skip: number, lastKey: unknown): Promise<RecordData[]> =>
    collection.list(
      data.caller,
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

  // The first batch is read before anything is sent, so that a query the data source refuses is
  // still a JSON:API error; later failures can only abort the stream.
  let batch = await readBatch(0, undefined);
  response.statusCode = 200;
  response.setHeader('Content-Type', 'text/csv; charset=utf-8');
  response.setHeader(
    'Content-Disposition',
    contentDisposition(data.query.filename || 'export.csv'),
  );
  response.setHeader('Access-Control-Expose-Headers', 'Content-Disposition');
  response.setHeader('Last-Modified', new Date().toUTCString());
  response.setHeader('X-Accel-Buffering', 'no');
  response.setHeader('Cache-Control', 'no-cache');
  response.write(stringify([header.split(',')], { record_delimiter: '\n' }));

  let skip = 0;
  while (batch.length > 0) {
    const rows = batch.map((record) =>
      projection.map((path) => renderCell(getFieldValue(record, path))),
    );
    if (!response.write(stringify(rows, { record_delimiter: '\n' }))) await drained(response);
    if (response.destroyed || batch.length < CSV_BATCH_SIZE) break;
    skip += batch.length;
    batch = await readBatch(skip, batch[batch.length - 1]?.[plan.primaryKeys[0] as string]);
  }
  response.end();
}

/** Resolves when the response can take more data, or is closed (client gone). */
function drained(response: HttpResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
