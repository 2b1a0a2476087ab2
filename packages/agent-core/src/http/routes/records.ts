import { bulkUpdateRecords } from '../../operations/bulk-update';
import { countRecords } from '../../operations/count';
import { createRecord } from '../../operations/create';
import { exportRecords } from '../../operations/csv';
import { deleteRecords } from '../../operations/delete';
import { getRecord } from '../../operations/get';
import { listRecords } from '../../operations/list';
import { coversColumns, recordEtag } from '../../operations/record-etag';
import { updateRecord } from '../../operations/update';
import type { Projection } from '../../toolkit/query/projection';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { ValidationError } from '../../toolkit/errors/canopy-error';
import { parsePage } from '../../protocol/query/page';
import {
  queryFilterParameters,
  readSelection,
  selectionTree,
} from '../../protocol/query/selection';
import { parseSort } from '../../protocol/query/sort';
import { deserializeBody } from '../../protocol/serializer/deserialize';
import { writeRecord, writeRecords } from '../../protocol/serializer/json-api';
import { unpackRecordId } from '../../operations/records/record-id';
import { findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import { type HttpRequest, type HttpResponse, requestBody } from '../request/node-http';
import type { RouteTable } from '../pipeline/route-table';
import { sendEmpty, sendJson, sendJsonText } from '../pipeline/send-json';
import { streamCsv } from './csv';
import { readProjection } from './read-helpers';

/**
 * The record routes are adapters: each parses the request into an operation's request
 * (`src/operations/`), runs the operation and serializes its answer.
 */

const CSV_SUFFIX = '.csv';

/** The `If-Match` header of a request, if any (several headers are joined as one list). */
function ifMatchHeader(request: HttpRequest): string | undefined {
  const value = request.headers['if-match'];
  return Array.isArray(value) ? value.join(',') : value;
}

/** `GET /:collectionName/count` (§8.2). */
async function serveCount(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const collection = findCollection(context, name);
  const answer = await countRecords(context, data, collection, () => ({
    filter: queryFilterParameters(data.query),
  }));
  sendJson(response, answer);
}

/** `GET /:collectionName` (§8.1), and the CSV export `GET /:collectionName.csv` (§8.14). */
async function serveList(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const exists = context.collections.has(name);
  if (!exists && name.endsWith(CSV_SUFFIX)) {
    const collection = findCollection(context, name.slice(0, -CSV_SUFFIX.length));
    const reader = await exportRecords(context, data, collection, () => ({
      filter: queryFilterParameters(data.query),
    }));
    await streamCsv(data, response, collection, reader, collection.name);
    return;
  }
  const collection = findCollection(context, name);
  const { records, filter } = await listRecords(context, data, collection, () => ({
    filter: queryFilterParameters(data.query),
    projection: readProjection(data, collection),
    sort: parseSort(collection, data.query.sort),
    page: parsePage(data.query['page[number]'], data.query['page[size]']),
  }));
  sendJsonText(response, writeRecords(collection, records, filter.search));
}

/** `GET /:collectionName/:id` (§8.3). */
async function serveGet(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
  packedId: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const collection = findCollection(context, name);
  let projection: Projection | undefined;
  const record = await getRecord(context, data, collection, () => {
    projection = readProjection(data, collection);
    return { id: unpackRecordId(collection, packedId), packedId, projection };
  });
  // A strong tag of the record's columns, for a later conditional update (§8.3, §8.5).
  if (projection && coversColumns(collection, projection)) {
    response.setHeader('ETag', recordEtag(collection, record));
  }
  sendJsonText(response, writeRecord(collection, record));
}

/**
 * `PATCH /:collectionName` (Canopy's addition, §8.5.1): the same attributes on every record of a
 * selection, `{data: {attributes}, meta: {selection}}` with the selection of a bulk delete.
 */
async function serveBulkUpdate(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const collection = findCollection(context, name);
  const result = await bulkUpdateRecords(context, data, collection, () => {
    const body = requestBody(request);
    const meta = (body as { meta?: unknown } | undefined)?.meta;
    const attributes = (meta as { selection?: unknown } | null | undefined)?.selection;
    if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
      throw new ValidationError(
        'Expected "meta.selection" to be {"ids": [...]} or {"all_records": true, "all_records_ids_excluded": [...]}',
      );
    }
    const selection = readSelection(collection, { data: { attributes } }, data.query);
    if (selection.parent) {
      throw new ValidationError(
        'A bulk update takes no parent record: update the related records through their own collection',
      );
    }
    return {
      filter: selection.parameters,
      selection: selectionTree(collection, selection),
      values: deserializeBody(collection, body).attributes,
    };
  });
  sendJson(response, { meta: { count: result.count } });
}

/**
 * Record routes of agent-http-protocol §8.1–8.7 and the CSV export of §8.14, in match order
 * (`count` wins over an id, §2).
 */
export function addRecordRoutes(routes: RouteTable, context: HttpContext): void {
  routes
    .add('GET', '/:collectionName/count', (request, response, [name]) =>
      serveCount(context, request, response, name as string),
    )
    .add('GET', '/:collectionName', (request, response, [name]) =>
      serveList(context, request, response, name as string),
    )
    .add('GET', '/:collectionName/:id', (request, response, [name, id]) =>
      serveGet(context, request, response, name as string, id as string),
    )
    .add('POST', '/:collectionName', async (request, response, [name]) => {
      const data = openDataRequest(context, request, response);
      const collection = findCollection(context, name as string);
      const record = await createRecord(context, data, collection, () => {
        const body = deserializeBody(collection, requestBody(request));
        return { values: { ...body.idValues, ...body.attributes }, toOne: body.toOne };
      });
      sendJsonText(response, writeRecord(collection, record));
    })
    .add('PUT', '/:collectionName/:id', async (request, response, [name, packedId]) => {
      const data = openDataRequest(context, request, response);
      const collection = findCollection(context, name as string);
      const record = await updateRecord(context, data, collection, () => ({
        id: unpackRecordId(collection, packedId),
        packedId: packedId as string,
        values: deserializeBody(collection, requestBody(request)).attributes,
        ifMatch: ifMatchHeader(request),
      }));
      sendJsonText(response, writeRecord(collection, record));
    })
    .add('PATCH', '/:collectionName', (request, response, [name]) =>
      serveBulkUpdate(context, request, response, name as string),
    )
    .add('DELETE', '/:collectionName/:id', async (request, response, [name, packedId]) => {
      const data = openDataRequest(context, request, response);
      const collection = findCollection(context, name as string);
      await deleteRecords(context, data, collection, () => ({
        filter: queryFilterParameters(data.query),
        selection: ConditionTreeFactory.matchIds(collection.schema, [
          unpackRecordId(collection, packedId),
        ]),
        packedIds: [packedId as string],
      }));
      sendEmpty(response);
    })
    .add('DELETE', '/:collectionName', async (request, response, [name]) => {
      const data = openDataRequest(context, request, response);
      const collection = findCollection(context, name as string);
      await deleteRecords(context, data, collection, () => {
        const selection = readSelection(collection, requestBody(request), data.query);
        return {
          filter: selection.parameters,
          selection: selectionTree(collection, selection),
          packedIds: selection.ids.map((id) => id.map(String).join('|')),
        };
      });
      sendEmpty(response);
    });
}
