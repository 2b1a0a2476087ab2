import { associateRecord } from '../../operations/associate';
import { countRelated } from '../../operations/count-related';
import { dissociateRecords } from '../../operations/dissociate';
import { exportRelated, listRelated } from '../../operations/list-related';
import { resolveRelation } from '../../operations/relation';
import { asToOne, setRelation } from '../../operations/set-relation';
import { updateArrayElement } from '../../operations/update-array-element';
import { NotFoundError, ValidationError } from '../../toolkit/errors/canopy-error';
import { parsePage } from '../../protocol/query/page';
import {
  queryFilterParameters,
  readSelection,
  selectionTree,
} from '../../protocol/query/selection';
import { parseSort } from '../../protocol/query/sort';
import { writeRecords } from '../../protocol/serializer/json-api';
import { unpackRecordId } from '../../operations/records/record-id';
import { findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import type { RouteTable } from '../pipeline/route-table';
import { sendEmpty, sendJson, sendJsonText } from '../pipeline/send-json';
import { type HttpRequest, type HttpResponse, requestBody } from '../request/node-http';
import { streamCsv } from './csv';
import { readProjection } from './read-helpers';

const CSV_SUFFIX = '.csv';

/** Routes on relations (agent-http-protocol §8.8–8.13): adapters over `src/operations/`. */
export function addRelationRoutes(routes: RouteTable, context: HttpContext): void {
  /** The data request and the relation of `/:collectionName/:parentId/relationships/:relation`. */
  const openRelation = (
    request: HttpRequest,
    response: HttpResponse,
    [collectionName = '', parentId = '', relationName = '']: readonly string[],
  ) => ({
    data: openDataRequest(context, request, response),
    relation: resolveRelation(context, collectionName, parentId, relationName),
    parentId,
  });

  routes.add(
    'GET',
    '/:collectionName/:parentId/relationships/:relationName/count',
    async (request, response, params) => {
      const { data, relation } = openRelation(request, response, params);
      const answer = await countRelated(context, data, relation, () => ({
        filter: queryFilterParameters(data.query),
      }));
      sendJson(response, answer);
    },
  );

  routes.add(
    'GET',
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response, params) => {
      const data = openDataRequest(context, request, response);
      const [collectionName = '', parentId = ''] = params;
      let relationName = params[2] ?? '';
      const parentCollection = findCollection(context, collectionName);
      const csv =
        !(relationName in parentCollection.schema.fields) && relationName.endsWith(CSV_SUFFIX);
      if (csv) relationName = relationName.slice(0, -CSV_SUFFIX.length);
      const relation = resolveRelation(context, collectionName, parentId, relationName);
      const { target } = relation;
      const parse = () => ({
        filter: queryFilterParameters(data.query),
        packedParentId: parentId,
      });
      if (csv) {
        const reader = await exportRelated(context, data, relation, parse);
        await streamCsv(data, response, target, reader, target.name);
        return;
      }
      const { records, filter } = await listRelated(context, data, relation, parse, () => ({
        sort: parseSort(target, data.query.sort),
        page: parsePage(data.query['page[number]'], data.query['page[size]']),
        projection: readProjection(data, target),
      }));
      sendJsonText(response, writeRecords(target, records, filter.search));
    },
  );

  routes.add(
    'POST',
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response, params) => {
      const { data, relation, parentId } = openRelation(request, response, params);
      await associateRecord(context, data, relation, () => {
        const items = (requestBody(request) as { data?: unknown } | undefined)?.data;
        const first: unknown = Array.isArray(items) ? items[0] : undefined;
        if (typeof first !== 'object' || first === null) {
          throw new ValidationError(
            'Expected {"data": [{"type": "<collection>", "id": "<id>"}]} with at least one record',
          );
        }
        return {
          targetId: unpackRecordId(relation.target, (first as { id?: unknown }).id),
          packedParentId: parentId,
        };
      });
      sendEmpty(response);
    },
  );

  routes.add(
    'DELETE',
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response, params) => {
      const { data, relation, parentId } = openRelation(request, response, params);
      const { target } = relation;
      await dissociateRecords(context, data, relation, Boolean(data.query.delete), () => {
        const selection = readSelection(target, requestBody(request), data.query);
        return {
          filter: selection.parameters,
          selection: selectionTree(target, selection),
          empty: !selection.allRecords && selection.ids.length === 0,
          packedParentId: parentId,
        };
      });
      sendEmpty(response);
    },
  );

  routes.add(
    'PUT',
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response, params) => {
      const opened = openRelation(request, response, params);
      const { data, parentId } = opened;
      const relation = asToOne(opened.relation);
      const linkage = (requestBody(request) as { data?: unknown } | undefined)?.data;
      if (linkage === undefined || (linkage !== null && typeof linkage !== 'object')) {
        throw new ValidationError(
          'Expected {"data": {"type": "<collection>", "id": "<id>"}} or {"data": null}',
        );
      }
      const targetId =
        linkage === null ? null : unpackRecordId(relation.target, (linkage as { id?: unknown }).id);
      await setRelation(context, data, relation, { targetId, packedParentId: parentId });
      sendEmpty(response);
    },
  );

  routes.add(
    'PUT',
    '/:collectionName/:id/relationships/:fieldName/:index',
    async (request, response, params) => {
      const data = openDataRequest(context, request, response);
      const [collectionName = '', id = '', fieldName = '', index = ''] = params;
      const collection = findCollection(context, collectionName);
      if (!/^\d+$/.test(index)) throw new NotFoundError('The array index must be digits');
      const column = collection.schema.fields[fieldName];
      if (column?.type !== 'Column' || !Array.isArray(column.columnType)) {
        throw new ValidationError(
          `Field '${fieldName}' of '${collection.name}' is not an array column`,
        );
      }
      await updateArrayElement(context, data, collection, () => ({
        id: unpackRecordId(collection, id),
        packedId: id,
        field: fieldName,
        position: Number(index),
        value: (requestBody(request) as { data?: { attributes?: unknown } } | undefined)?.data
          ?.attributes,
      }));
      sendEmpty(response);
    },
  );
}
