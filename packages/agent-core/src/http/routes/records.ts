import type { Router } from 'express';

import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../../toolkit/query/condition-tree/condition-tree-leaf';
import { type Filter } from '../../toolkit/query/filter';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import type { Sort } from '../../toolkit/query/sort';
import { Page } from '../../toolkit/query/page';
import { Projection } from '../../toolkit/query/projection';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';
import type { ManyToOneSchema, OneToOneSchema } from '../../toolkit/schema/field-schema';
import { validateRecord } from '../../toolkit/validation/record-validator';
import { NotFoundError } from '../errors/http-errors';
import { parsePage } from '../query/page';
import { defaultProjection, withPrimaryKeys } from '../query/projection';
import { queryFilterParameters, readSelection, selectionTree } from '../query/selection';
import { parseSort } from '../query/sort';
import { getCollectionPlan } from '../serializer/collection-plan';
import { deserializeBody } from '../serializer/deserialize';
import { packRecordId, serializeRecord, serializeRecords } from '../serializer/json-api';
import { unpackRecordId } from '../serializer/record-id';
import { readActivity, reportActivity } from '../request/activity-log';
import { buildFilter } from '../request/build-filter';
import { type DataRequest, findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import type { HttpRequest, HttpResponse } from '../request/node-http';
import { sendJson } from '../pipeline/send-json';
import { streamCsv } from './csv';
import { countAnswer, readProjection } from './read-helpers';

const CSV_SUFFIX = '.csv';

/**
 * Reads one record by id within the caller's scope, or `null`. The filter is the one `buildFilter`
 * makes without request parameters (no filters, search, segment or live query): the caller's
 * scope, then the id condition — built here directly, without the intermediate `Filter`.
 */
export async function readOne(
  data: DataRequest,
  collection: Collection,
  id: CompositeId,
  projection: Projection,
  options: { withScope?: boolean } = {},
): Promise<RecordData | null> {
  const ids = matchId(collection, id);
  let scope =
    options.withScope === false ? null : data.context.permissions.getScope(data.claims, collection);
  if (scope instanceof Promise) scope = await scope;
  const filter = new PaginatedFilter({
    conditionTree: scope ? ConditionTreeFactory.intersect(scope, ids) : ids,
    page: FIRST,
  });
  const [record] = await collection.list(data.caller, filter, projection);
  return record ?? null;
}

/**
 * `pk = value` for a single primary key that supports `Equal` and `In` (the condition `matchIds`
 * builds, without its arrays); any other case, errors included, goes through `matchIds`.
 */
function matchId(collection: Collection, id: CompositeId): ConditionTree {
  const { primaryKeys } = getCollectionPlan(collection);
  if (primaryKeys.length === 1 && id.length === 1) {
    const key = primaryKeys[0] as string;
    const field = collection.schema.fields[key];
    if (
      field?.type === 'Column' &&
      field.filterOperators.has('Equal') &&
      field.filterOperators.has('In')
    ) {
      return new ConditionTreeLeaf(key, 'Equal', id[0]);
    }
  }
  return ConditionTreeFactory.matchIds(collection.schema, [id]);
}

/** The window of a read by id (a `Page` is never mutated: one is shared). */
const FIRST = new Page(0, 1);

/** A filter's parts with a sort and a page, in one object. */
function paginated(filter: Filter, sort: Sort | null, page: Page): PaginatedFilter {
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

function filterParts(filter: Filter) {
  return {
    conditionTree: filter.conditionTree,
    search: filter.search,
    searchExtended: filter.searchExtended,
    segment: filter.segment,
    liveQuerySegment: filter.liveQuerySegment,
  };
}

/** `GET /:collectionName/count` (§8.2). */
export async function countRecords(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const collection = findCollection(context, name);
  await context.permissions.assertCollectionRight(data.claims, collection.name, 'browse');
  const parameters = queryFilterParameters(data.query);
  const filter = await buildFilter(data, collection, parameters);
  sendJson(response, await countAnswer(data, collection, filter));
}

/** `GET /:collectionName` (§8.1), and the CSV export `GET /:collectionName.csv` (§8.14). */
export async function listRecords(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
): Promise<void> {
  const { permissions } = context;
  const data = openDataRequest(context, request, response);
  const exists = context.collections.has(name);
  if (!exists && name.endsWith(CSV_SUFFIX)) {
    const collection = findCollection(context, name.slice(0, -CSV_SUFFIX.length));
    await permissions.assertCollectionRight(data.claims, collection.name, 'browse');
    await permissions.assertCollectionRight(data.claims, collection.name, 'export');
    const filter = await buildFilter(data, collection, queryFilterParameters(data.query));
    reportActivity(data, 'export', collection.name);
    await streamCsv(data, response, collection, filter, collection.name);
    return;
  }
  const collection = findCollection(context, name);
  const checking = permissions.assertCollectionRight(data.claims, collection.name, 'browse');
  if (checking) await checking;
  const parameters = queryFilterParameters(data.query);
  const projection = readProjection(data, collection);
  const sort = parseSort(collection, data.query.sort);
  const page = parsePage(data.query['page[number]'], data.query['page[size]']);
  const filter = await buildFilter(data, collection, parameters);
  const records = await collection.list(data.caller, paginated(filter, sort, page), projection);
  reportActivity(data, readActivity(parameters), collection.name);
  sendJson(response, serializeRecords(collection, records, filter.search));
}

/** `GET /:collectionName/:id` (§8.3). */
export async function getRecord(
  context: HttpContext,
  request: HttpRequest,
  response: HttpResponse,
  name: string,
  packedId: string,
): Promise<void> {
  const data = openDataRequest(context, request, response);
  const collection = findCollection(context, name);
  const checking = context.permissions.assertCollectionRight(data.claims, collection.name, 'read');
  if (checking) await checking;
  const id = unpackRecordId(collection, packedId);
  const record = await readOne(data, collection, id, readProjection(data, collection));
  if (!record) throw new NotFoundError();
  reportActivity(data, 'read', collection.name, [packedId]);
  sendJson(response, serializeRecord(collection, record));
}

/** Record routes of agent-http-protocol §8.1–8.7 and the CSV export of §8.14. */
export function mountRecordRoutes(router: Router, context: HttpContext): void {
  const { permissions } = context;

  router.get('/:collectionName/count', (request, response) =>
    countRecords(context, request, response, request.params.collectionName as string),
  );
  router.get('/:collectionName', (request, response) =>
    listRecords(context, request, response, request.params.collectionName as string),
  );
  router.get('/:collectionName/:id', (request, response) =>
    getRecord(
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
    await permissions.assertCollectionRight(data.claims, collection.name, 'add');
    const body = deserializeBody(collection, request.body);
    const record: RecordData = { ...body.idValues, ...body.attributes };
    const linked: RecordData = {};
    const oneToOne: [string, OneToOneSchema, CompositeId | null][] = [];
    for (const [relation, targetId] of body.toOne) {
      const field = collection.schema.fields[relation] as ManyToOneSchema | OneToOneSchema;
      const target = findCollection(context, field.foreignCollection);
      if (field.type === 'ManyToOne') {
        record[field.foreignKey] =
          targetId === null
            ? null
            : await readTargetValue(data, target, targetId, field.foreignKeyTarget);
        linked[relation] = targetId === null ? null : idRecord(target, targetId);
      } else {
        oneToOne.push([relation, field, targetId]);
        linked[relation] = targetId === null ? null : idRecord(target, targetId);
      }
    }
    for (const [, field, targetId] of oneToOne) {
      if (targetId !== null) {
        await permissions.assertCollectionRight(data.claims, field.foreignCollection, 'edit');
      }
    }
    if (Object.keys(record).length > 0) validateRecord(collection, record);
    const [created] = await collection.create(data.caller, [record]);
    if (!created)
      throw new ValidationError(`The data source created no record in '${collection.name}'`);
    for (const [, field, targetId] of oneToOne) {
      if (targetId === null) continue;
      const target = findCollection(context, field.foreignCollection);
      await linkOneToOne(data, target, field, created[field.originKeyTarget], targetId);
    }
    const answer = { ...created, ...linked };
    reportActivity(data, 'create', collection.name, [
      packRecordId(getCollectionPlan(collection), created),
    ]);
    sendJson(response, serializeRecord(collection, answer));
  });

  router.put('/:collectionName/:id', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    await permissions.assertCollectionRight(data.claims, collection.name, 'edit');
    const id = unpackRecordId(collection, request.params.id);
    const { attributes } = deserializeBody(collection, request.body);
    if (Object.keys(attributes).length === 0) {
      throw new ValidationError(
        `The record data is empty (send at least one attribute of '${collection.name}')`,
      );
    }
    validateRecord(collection, attributes);
    const filter = await buildFilter(data, collection, {}, [
      ConditionTreeFactory.matchIds(collection.schema, [id]),
    ]);
    await collection.update(data.caller, filter, attributes);
    const plan = getCollectionPlan(collection);
    const newId = plan.primaryKeys.map((key, index) =>
      key in attributes ? attributes[key] : id[index],
    );
    const record = await readOne(
      data,
      collection,
      newId,
      withPrimaryKeys(collection, defaultProjection(collection)),
    );
    reportActivity(data, 'update', collection.name, [request.params.id]);
    sendJson(response, serializeRecord(collection, record));
  });

  router.delete('/:collectionName/:id', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    await permissions.assertCollectionRight(data.claims, collection.name, 'delete');
    const id = unpackRecordId(collection, request.params.id);
    const filter = await buildFilter(data, collection, queryFilterParameters(data.query), [
      ConditionTreeFactory.matchIds(collection.schema, [id]),
    ]);
    await collection.delete(data.caller, filter);
    reportActivity(data, 'delete', collection.name, [request.params.id]);
    response.status(204).end();
  });

  router.delete('/:collectionName', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const collection = findCollection(context, request.params.collectionName);
    await permissions.assertCollectionRight(data.claims, collection.name, 'delete');
    const selection = readSelection(collection, request.body, data.query);
    const filter = await buildFilter(data, collection, selection.parameters, [
      selectionTree(collection, selection),
    ]);
    await collection.delete(data.caller, filter);
    reportActivity(
      data,
      'delete',
      collection.name,
      selection.ids.map((id) => id.map(String).join('|')),
    );
    response.status(204).end();
  });
}

function idRecord(collection: Collection, id: CompositeId): RecordData {
  const plan = getCollectionPlan(collection);
  return Object.fromEntries(plan.primaryKeys.map((key, index) => [key, id[index]]));
}

/** The value of `field` on the target record `id` (its key when `field` is the primary key). */
export async function readTargetValue(
  data: DataRequest,
  target: Collection,
  id: CompositeId,
  field: string,
): Promise<unknown> {
  const plan = getCollectionPlan(target);
  if (plan.primaryKeys.length === 1 && plan.primaryKeys[0] === field) return id[0];
  const record = await readOne(data, target, id, new Projection(field));
  if (!record) throw new NotFoundError(`Record does not exists ('${target.name}' ${id.join('|')})`);
  return record[field];
}

/**
 * Points the one-to-one target `targetId` at `originValue`, after unlinking the target that
 * currently points there (both within the target's scope), as §8.4 step 6 and §8.12 say.
 */
export async function linkOneToOne(
  data: DataRequest,
  target: Collection,
  field: OneToOneSchema,
  originValue: unknown,
  targetId: CompositeId | null,
): Promise<void> {
  const current = await buildFilter(data, target, {}, [
    ConditionTreeFactory.fromPlainObject({
      field: field.originKey,
      operator: 'Equal',
      value: originValue,
    }),
  ]);
  const existing = await target.list(
    data.caller,
    new PaginatedFilter({ ...filterParts(current), page: new Page(0, 1) }),
    new Projection(...getCollectionPlan(target).primaryKeys),
  );
  if (existing.length > 0) {
    await target.update(data.caller, current, { [field.originKey]: null });
  }
  if (targetId === null) return;
  const chosen = await buildFilter(data, target, {}, [
    ConditionTreeFactory.matchIds(target.schema, [targetId]),
  ]);
  await target.update(data.caller, chosen, { [field.originKey]: originValue });
}
