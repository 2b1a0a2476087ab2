import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { ConditionTree } from '../../toolkit/query/condition-tree/condition-tree';
import { ConditionTreeFactory } from '../../toolkit/query/condition-tree/condition-tree-factory';
import type { CompositeId } from '../../toolkit/record/record-utils';
import { unpackRecordId } from '../../operations/records/record-id';
import type { FilterParameters } from '../../operations/filter';
import type { FlatQuery } from './query-string';

/** A selection of records read from a bulk body (§6.9). */
export interface Selection {
  ids: CompositeId[];
  allRecords: boolean;
  excludedIds: CompositeId[];
  /** Filtering parameters: the query string overridden by `all_records_subset_query`. */
  parameters: FilterParameters;
  /** `parent_collection_name` / `parent_collection_id` / `parent_association_name`, if any. */
  parent: { collectionName: string; id: string; relation: string } | null;
  /** The body's `attributes` (actions read `values`, `signed_approval_request`, ... from it). */
  attributes: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SUBSET_KEYS = [
  'filters',
  'search',
  'searchExtended',
  'segment',
  'segmentQuery',
  'connectionName',
] as const;

/** The filtering parameters of the query string. */
export function queryFilterParameters(query: FlatQuery): FilterParameters {
  return {
    filters: query.filters,
    search: query.search,
    searchExtended: query.searchExtended,
    segment: query.segment,
    segmentQuery: query.segmentQuery,
    connectionName: query.connectionName,
  };
}

/** Reads the selection of a bulk body; ids are unpacked for `collection`. */
export function readSelection(collection: Collection, body: unknown, query: FlatQuery): Selection {
  const data = isObject(body) ? body.data : undefined;
  const parameters = queryFilterParameters(query);
  if (Array.isArray(data)) {
    return idsSelection(
      collection,
      data.map((item) => (isObject(item) ? item.id : item)),
      parameters,
    );
  }
  const attributes = isObject(data) && isObject(data.attributes) ? data.attributes : {};
  const allRecords = attributes.all_records === true || attributes.all_records === 'true';
  const ids = attributes.ids;
  if (!allRecords && !Array.isArray(ids)) {
    throw new ValidationError(
      `Expected array, received: ${ids === undefined ? 'undefined' : typeof ids} (the selection needs "data.attributes.ids" or "all_records": true)`,
    );
  }
  const excluded = attributes.all_records_ids_excluded ?? [];
  if (!Array.isArray(excluded)) {
    throw new ValidationError('Expected "all_records_ids_excluded" to be an array of record ids');
  }
  const subset = attributes.all_records_subset_query;
  if (isObject(subset)) {
    for (const key of SUBSET_KEYS) if (subset[key] !== undefined) parameters[key] = subset[key];
  }
  const parentName = attributes.parent_collection_name;
  const parentId = attributes.parent_collection_id;
  const parentRelation = attributes.parent_association_name;
  return {
    ids: (Array.isArray(ids) ? ids : []).map((id) => unpackRecordId(collection, id)),
    allRecords,
    excludedIds: excluded.map((id) => unpackRecordId(collection, id)),
    parameters,
    parent:
      typeof parentName === 'string' &&
      parentName &&
      (typeof parentId === 'string' || typeof parentId === 'number') &&
      typeof parentRelation === 'string' &&
      parentRelation
        ? { collectionName: parentName, id: String(parentId), relation: parentRelation }
        : null,
    attributes,
  };
}

/** A selection of exactly these records (packed ids, unpacked for `collection`). */
export function idsSelection(
  collection: Collection,
  ids: readonly unknown[],
  parameters: FilterParameters = {},
): Selection {
  return {
    ids: ids.map((id) => unpackRecordId(collection, id)),
    allRecords: false,
    excludedIds: [],
    parameters,
    parent: null,
    attributes: {},
  };
}

/** The condition tree of the ids of a selection (all but the excluded, or exactly the ids). */
export function selectionTree(collection: Collection, selection: Selection): ConditionTree | null {
  if (selection.allRecords) {
    return selection.excludedIds.length === 0
      ? null
      : ConditionTreeFactory.matchIds(collection.schema, selection.excludedIds).inverse();
  }
  return ConditionTreeFactory.matchIds(collection.schema, selection.ids);
}
