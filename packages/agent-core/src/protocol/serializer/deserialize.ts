import { ValidationError } from '../../toolkit/errors/canopy-error';
import type { Collection } from '../../toolkit/interfaces/collection';
import type { CompositeId, RecordData } from '../../toolkit/record/record-utils';
import { getCollectionPlan } from '../../operations/records/collection-plan';
import { unpackRecordId } from '../../operations/records/record-id';

/** A create/update body (§7.8), split into its parts. */
export interface DeserializedBody {
  /** `data.attributes`, verbatim. */
  attributes: RecordData;
  /** Primary-key values coming only from `data.id` (not present in `attributes`). */
  idValues: RecordData;
  /** To-one relationships sent: relation name → target id, or `null` to unlink. */
  toOne: Map<string, CompositeId | null>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The target id of a to-one link of `collection` (a `null` linkage unlinks), unpacked for the
 * relation's collection; `undefined` when `relation` is no to-one relation of `collection`.
 */
export function toOneLink(
  collection: Collection,
  relation: string,
  linkage: { readonly id?: unknown } | null,
): CompositeId | null | undefined {
  const target = getCollectionPlan(collection).toOne.get(relation);
  if (!target) return undefined;
  return linkage === null ? null : unpackRecordId(target, linkage.id);
}

/** Reads a JSON:API resource body (`{data: {type, id?, attributes, relationships?}}`). */
export function deserializeBody(collection: Collection, body: unknown): DeserializedBody {
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(data)) {
    throw new ValidationError(
      `Expected a JSON:API body {"data": {"type": "${collection.name}", "attributes": {...}}}`,
    );
  }
  const attributes = data.attributes ?? {};
  if (!isObject(attributes)) {
    throw new ValidationError('Expected "data.attributes" to be an object of field values');
  }
  const plan = getCollectionPlan(collection);
  const idValues: RecordData = {};
  if (data.id !== undefined && data.id !== null && plan.primaryKeys.length > 0) {
    const id = unpackRecordId(collection, data.id);
    plan.primaryKeys.forEach((key, index) => {
      if (!(key in attributes)) idValues[key] = id[index];
    });
  }
  const toOne = new Map<string, CompositeId | null>();
  const relationships = data.relationships ?? {};
  if (!isObject(relationships)) {
    throw new ValidationError('Expected "data.relationships" to be an object');
  }
  for (const [name, value] of Object.entries(relationships)) {
    if (!plan.toOne.has(name)) continue;
    const linkage = isObject(value) ? value.data : undefined;
    if (linkage === null || isObject(linkage)) {
      toOne.set(name, toOneLink(collection, name, linkage) ?? null);
    } else {
      throw new ValidationError(
        `Expected "data.relationships.${name}.data" to be {"type", "id"} or null`,
      );
    }
  }
  return { attributes: { ...attributes }, idValues, toOne };
}
