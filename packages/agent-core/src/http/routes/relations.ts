import type { Router } from 'express';

import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import { ConditionTreeLeaf } from '../../toolkit/query/condition-tree/condition-tree-leaf';
import { Filter } from '../../toolkit/query/filter';
import { PaginatedFilter } from '../../toolkit/query/paginated-filter';
import { Projection } from '../../toolkit/query/projection';
import type { CompositeId } from '../../toolkit/record/record-utils';
import type {
  ManyToManySchema,
  OneToManySchema,
  RelationSchema,
} from '../../toolkit/schema/field-schema';
import { validateRecord } from '../../toolkit/validation/record-validator';
import { HttpError, NotFoundError } from '../errors/http-errors';
import { parsePage } from '../query/page';
import { queryFilterParameters, readSelection, selectionTree } from '../query/selection';
import { parseSort } from '../query/sort';
import { getCollectionPlan } from '../serializer/collection-plan';
import { serializeRecords } from '../serializer/json-api';
import { unpackRecordId } from '../serializer/record-id';
import { reportActivity } from '../request/activity-log';
import { buildFilter } from '../request/build-filter';
import { type DataRequest, findCollection, openDataRequest } from '../request/data-request';
import type { HttpContext } from '../request/http-context';
import { sendJson } from '../pipeline/send-json';
import { streamCsv } from './csv';
import { countAnswer, readProjection } from './read-helpers';
import { linkOneToOne, readOne, readTargetValue } from './records';

type ToManySchema = OneToManySchema | ManyToManySchema;

const CSV_SUFFIX = '.csv';

interface RelationTarget {
  parent: Collection;
  parentId: CompositeId;
  name: string;
  field: RelationSchema;
  target: Collection;
}

function resolveRelation(
  context: HttpContext,
  collectionName: string,
  parentId: string,
  relation: string,
): RelationTarget {
  const parent = findCollection(context, collectionName);
  const field = parent.schema.fields[relation];
  if (!field || field.type === 'Column') {
    throw new NotFoundError(`Relation '${relation}' does not exist on '${parent.name}'`);
  }
  return {
    parent,
    parentId: unpackRecordId(parent, parentId),
    name: relation,
    field,
    target: findCollection(context, field.foreignCollection),
  };
}

function asToMany(relation: RelationTarget): ToManySchema {
  if (relation.field.type !== 'OneToMany' && relation.field.type !== 'ManyToMany') {
    throw new NotFoundError(
      `Relation '${relation.name}' of '${relation.parent.name}' is a ${relation.field.type} relation: this route serves one-to-many and many-to-many relations`,
    );
  }
  return relation.field;
}

/** The parent's `originKeyTarget` value; the parent side of to-many routes is not scoped (§15.5). */
async function readParentValue(
  data: DataRequest,
  relation: RelationTarget,
  field: ToManySchema,
): Promise<unknown> {
  const record = await readOne(
    data,
    relation.parent,
    relation.parentId,
    new Projection(field.originKeyTarget),
    {
      withScope: false,
    },
  );
  if (!record) throw new NotFoundError();
  return record[field.originKeyTarget];
}

/** The condition on target records "linked to this parent". */
async function linkedTree(
  data: DataRequest,
  relation: RelationTarget,
  field: ToManySchema,
): Promise<ConditionTree> {
  const parentValue = await readParentValue(data, relation, field);
  if (field.type === 'OneToMany')
    return new ConditionTreeLeaf(field.originKey, 'Equal', parentValue);
  const through = findCollection(data.context, field.throughCollection);
  const rows = await through.list(
    data.caller,
    new PaginatedFilter({
      conditionTree: new ConditionTreeLeaf(field.originKey, 'Equal', parentValue),
    }),
    new Projection(field.foreignKey),
  );
  const values = [...new Set(rows.map((row) => row[field.foreignKey]))];
  return values.length === 0
    ? ConditionTreeFactory.MatchNone
    : new ConditionTreeLeaf(field.foreignKeyTarget, 'In', values);
}

/**
 * The condition restricting records of `relationName`'s target to those linked to one parent
 * record (actions run from a related-data tab, §6.9).
 */
export async function parentRestriction(
  data: DataRequest,
  parent: { collectionName: string; id: string; relation: string },
): Promise<ConditionTree> {
  const relation = resolveRelation(data.context, parent.collectionName, parent.id, parent.relation);
  return linkedTree(data, relation, asToMany(relation));
}

/** Routes on relations (agent-http-protocol §8.8–8.13). */
export function mountRelationRoutes(router: Router, context: HttpContext): void {
  const { permissions } = context;

  router.get(
    '/:collectionName/:parentId/relationships/:relationName/count',
    async (request, response) => {
      const data = openDataRequest(context, request, response);
      const { collectionName, parentId, relationName } = request.params;
      const relation = resolveRelation(context, collectionName, parentId, relationName);
      const field = asToMany(relation);
      await permissions.assertCollectionRight(data.claims, relation.target.name, 'browse');
      const filter = await buildFilter(data, relation.target, queryFilterParameters(data.query), [
        await linkedTree(data, relation, field),
      ]);
      sendJson(response, await countAnswer(data, relation.target, filter));
    },
  );

  router.get(
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response) => {
      const data = openDataRequest(context, request, response);
      const { collectionName, parentId } = request.params;
      let { relationName } = request.params;
      const parentCollection = findCollection(context, collectionName);
      const csv =
        !(relationName in parentCollection.schema.fields) && relationName.endsWith(CSV_SUFFIX);
      if (csv) relationName = relationName.slice(0, -CSV_SUFFIX.length);
      const relation = resolveRelation(context, collectionName, parentId, relationName);
      const field = asToMany(relation);
      const { target } = relation;
      await permissions.assertCollectionRight(data.claims, target.name, 'browse');
      if (csv) await permissions.assertCollectionRight(data.claims, target.name, 'export');
      const parameters = queryFilterParameters(data.query);
      const filter = await buildFilter(data, target, parameters, [
        await linkedTree(data, relation, field),
      ]);
      reportActivity(data, csv ? 'export' : 'listRelatedData', target.name, [parentId]);
      if (csv) {
        await streamCsv(data, response, target, filter, target.name);
        return;
      }
      const records = await target.list(
        data.caller,
        new PaginatedFilter({
          conditionTree: filter.conditionTree,
          search: filter.search,
          searchExtended: filter.searchExtended,
          segment: filter.segment,
          liveQuerySegment: filter.liveQuerySegment,
          sort: parseSort(target, data.query.sort),
          page: parsePage(data.query['page[number]'], data.query['page[size]']),
        }),
        readProjection(data, target),
      );
      sendJson(response, serializeRecords(target, records, filter.search));
    },
  );

  router.post(
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response) => {
      const data = openDataRequest(context, request, response);
      const { collectionName, parentId, relationName } = request.params;
      const relation = resolveRelation(context, collectionName, parentId, relationName);
      const field = asToMany(relation);
      const { target } = relation;
      await permissions.assertCollectionRight(data.claims, target.name, 'edit');
      const items = (request.body as { data?: unknown } | undefined)?.data;
      const first: unknown = Array.isArray(items) ? items[0] : undefined;
      if (typeof first !== 'object' || first === null) {
        throw new ValidationError(
          'Expected {"data": [{"type": "<collection>", "id": "<id>"}]} with at least one record',
        );
      }
      const targetId = unpackRecordId(target, (first as { id?: unknown }).id);
      const parentValue = await readParentValue(data, relation, field);
      const visible = await buildFilter(data, target, {}, [
        ConditionTreeFactory.matchIds(target.schema, [targetId]),
      ]);
      // The target must exist within its scope: associating nothing is a 404, not a silent 204.
      const [record] = await target.list(
        data.caller,
        new PaginatedFilter({ conditionTree: visible.conditionTree }),
        new Projection(field.type === 'OneToMany' ? field.originKey : field.foreignKeyTarget).union(
          getCollectionPlan(target).primaryKeys,
        ),
      );
      if (!record) {
        throw new NotFoundError(`Record does not exists ('${target.name}' ${targetId.join('|')})`);
      }
      if (field.type === 'OneToMany') {
        await target.update(data.caller, visible, { [field.originKey]: parentValue });
      } else {
        const through = findCollection(context, field.throughCollection);
        await through.create(data.caller, [
          { [field.originKey]: parentValue, [field.foreignKey]: record[field.foreignKeyTarget] },
        ]);
      }
      reportActivity(data, 'update', collectionName, [parentId]);
      response.status(204).end();
    },
  );

  router.delete(
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response) => {
      const data = openDataRequest(context, request, response);
      const { collectionName, parentId, relationName } = request.params;
      const relation = resolveRelation(context, collectionName, parentId, relationName);
      const field = asToMany(relation);
      const { target } = relation;
      const deleteMode = Boolean(data.query.delete);
      await permissions.assertCollectionRight(
        data.claims,
        target.name,
        deleteMode ? 'delete' : 'edit',
      );
      const selection = readSelection(target, request.body, data.query);
      if (!selection.allRecords && selection.ids.length === 0) {
        throw new ValidationError('Expected no empty id list');
      }
      const parentValue = await readParentValue(data, relation, field);
      const filter = await buildFilter(data, target, selection.parameters, [
        selectionTree(target, selection),
        await linkedTree(data, relation, field),
      ]);
      if (field.type === 'OneToMany') {
        if (deleteMode) await target.delete(data.caller, filter);
        else await target.update(data.caller, filter, { [field.originKey]: null });
      } else {
        const targets = await target.list(
          data.caller,
          new PaginatedFilter(filter),
          new Projection(field.foreignKeyTarget).union(getCollectionPlan(target).primaryKeys),
        );
        if (targets.length > 0) {
          const through = findCollection(context, field.throughCollection);
          await through.delete(
            data.caller,
            new Filter({
              conditionTree: ConditionTreeFactory.intersect(
                new ConditionTreeLeaf(field.originKey, 'Equal', parentValue),
                new ConditionTreeLeaf(
                  field.foreignKey,
                  'In',
                  targets.map((row) => row[field.foreignKeyTarget]),
                ),
              ),
            }),
          );
          if (deleteMode) {
            await target.delete(
              data.caller,
              new Filter({
                conditionTree: ConditionTreeFactory.matchRecords(target.schema, targets),
              }),
            );
          }
        }
      }
      reportActivity(
        data,
        deleteMode ? 'delete' : 'update',
        deleteMode ? target.name : collectionName,
        [parentId],
      );
      response.status(204).end();
    },
  );

  router.put(
    '/:collectionName/:parentId/relationships/:relationName',
    async (request, response) => {
      const data = openDataRequest(context, request, response);
      const { collectionName, parentId, relationName } = request.params;
      const relation = resolveRelation(context, collectionName, parentId, relationName);
      const { field, target, parent } = relation;
      if (field.type !== 'ManyToOne' && field.type !== 'OneToOne') {
        throw new NotFoundError(
          `Relation '${relationName}' of '${parent.name}' is a ${field.type} relation: this route serves many-to-one and one-to-one relations`,
        );
      }
      const linkage = (request.body as { data?: unknown } | undefined)?.data;
      if (linkage === undefined || (linkage !== null && typeof linkage !== 'object')) {
        throw new ValidationError(
          'Expected {"data": {"type": "<collection>", "id": "<id>"}} or {"data": null}',
        );
      }
      const targetId =
        linkage === null ? null : unpackRecordId(target, (linkage as { id?: unknown }).id);
      if (field.type === 'ManyToOne') {
        await permissions.assertCollectionRight(data.claims, parent.name, 'edit');
        const value =
          targetId === null
            ? null
            : await readTargetValue(data, target, targetId, field.foreignKeyTarget);
        const filter = await buildFilter(data, parent, {}, [
          ConditionTreeFactory.matchIds(parent.schema, [relation.parentId]),
        ]);
        await parent.update(data.caller, filter, { [field.foreignKey]: value });
      } else {
        await permissions.assertCollectionRight(data.claims, target.name, 'edit');
        const record = await readOne(
          data,
          parent,
          relation.parentId,
          new Projection(field.originKeyTarget),
          {
            withScope: false,
          },
        );
        if (!record) throw new NotFoundError();
        await linkOneToOne(data, target, field, record[field.originKeyTarget], targetId);
      }
      reportActivity(data, 'update', parent.name, [parentId]);
      response.status(204).end();
    },
  );

  router.put('/:collectionName/:id/relationships/:fieldName/:index', async (request, response) => {
    const data = openDataRequest(context, request, response);
    const { collectionName, id, fieldName, index } = request.params;
    const collection = findCollection(context, collectionName);
    if (!/^\d+$/.test(index))
      throw new HttpError(404, 'NOT_FOUND', 'The array index must be digits');
    const column = collection.schema.fields[fieldName];
    if (column?.type !== 'Column' || !Array.isArray(column.columnType)) {
      throw new ValidationError(
        `Field '${fieldName}' of '${collection.name}' is not an array column`,
      );
    }
    await permissions.assertCollectionRight(data.claims, collection.name, 'edit');
    const recordId = unpackRecordId(collection, id);
    const record = await readOne(data, collection, recordId, new Projection(fieldName));
    if (!record) throw new NotFoundError();
    const array = Array.isArray(record[fieldName]) ? [...(record[fieldName] as unknown[])] : [];
    const position = Number(index);
    if (position >= array.length) throw new ValidationError(`Field '${fieldName}' is too short`);
    array[position] = (request.body as { data?: { attributes?: unknown } } | undefined)?.data
      ?.attributes;
    const filter = await buildFilter(data, collection, {}, [
      ConditionTreeFactory.matchIds(collection.schema, [recordId]),
    ]);
    validateRecord(collection, { [fieldName]: array });
    await collection.update(data.caller, filter, { [fieldName]: array });
    reportActivity(data, 'update', collection.name, [id]);
    response.status(204).end();
  });
}
