import type { Router } from 'express';

import { countRecords } from '../../operations/count';
import { createRecord } from '../../operations/create';
import { exportRecords } from '../../operations/csv';
import { deleteRecords } from '../../operations/delete';
import { getRecord } from '../../operations/get';
import { listRecords } from '../../operations/list';
import { updateRecord } from '../../operations/update';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { parsePage } from '../../protocol/query/page';
import {
  queryFilterParameters,
  readSelection,
  selectionTree,
} from '../../protocol/query/selection';
import { parseSort } from '../../protocol/query/sort';
import { deserializeBody } from '../../protocol/serializer/deserialize';
import { serializeRecord, serializeRecords } from '../../protocol/serializer/json-api';
import { unpackRecordId } from '../../operations/records/record-id';
import { findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import type { HttpRequest, HttpResponse } from '../request/node-http';
import { sendJson } from '../pipeline/send-json';
import { streamCsv } from './csv';
import { readProjection } from './read-helpers';

/**
 * The record routes are adapters: each parses the request into an operation's request
 * (`src/operations/`), runs the operation and serializes its answer. The three hot routes below
 * are also served by `hot-routes.ts`, which calls these same functions.
 */

const CSV_SUFFIX = '.csv';

/** `GET /:collectionName/count` (§8.2). */
export async function serveCount(
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
export async function serveList(
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
  sendJson(response, serializeRecords(collection, records, filter.search));
}

/** `GET /:collectionName/:id` (§8.3). */
export async function serveGet(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
  packedId: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const collection = findCollection(context, name);
  const record = await getRecord(context, data, collection, () => ({
    id: unpackRecordId(collection, packedId),
    packedId,
    projection: readProjection(data, collection),
  }));
  sendJson(response, serializeRecord(collection, record));
}

/** Record routes of agent-http-protocol §8.1–8.7 and the CSV export of §8.14. */
export function mountRecordRoutes(router: Router, context: HttpContext): void {
  router.get('/:collectionName/count', (request, response) =>
    serveCount(context, request, response, request.params.collectionName as string),
  );
  router.get('/:collectionName', (request, response) =>
    serveList(context, request, response, request.params.collectionName as string),
  );
  router.get('/:collectionName/:id', (request, response) =>
    serveGet(
      context,
      request,
      response,
      request.params.collectionName as string,
      request.params.id as string,
    ),
  );

  router.post('/:collectionName', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    const record = await createRecord(context, data, collection, () => {
      const body = deserializeBody(collection, request.body);
      return { values: { ...body.idValues, ...body.attributes }, toOne: body.toOne };
    });
    sendJson(response, serializeRecord(collection, record));
  });

  router.put('/:collectionName/:id', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    const packedId = request.params.id;
    const record = await updateRecord(context, data, collection, () => ({
      id: unpackRecordId(collection, packedId),
      packedId,
      values: deserializeBody(collection, request.body).attributes,
    }));
    sendJson(response, serializeRecord(collection, record));
  });

  router.delete('/:collectionName/:id', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    const packedId = request.params.id;
    await deleteRecords(context, data, collection, () => ({
      filter: queryFilterParameters(data.query),
      selection: ConditionTreeFactory.matchIds(collection.schema, [
        unpackRecordId(collection, packedId),
      ]),
      packedIds: [packedId],
    }));
    response.status(204).end();
  });

  router.delete('/:collectionName', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    await deleteRecords(context, data, collection, () => {
      const selection = readSelection(collection, request.body, data.query);
      return {
        filter: selection.parameters,
        selection: selectionTree(collection, selection),
        packedIds: selection.ids.map((id) => id.map(String).join('|')),
      };
    });
    response.status(204).end();
  });
}
