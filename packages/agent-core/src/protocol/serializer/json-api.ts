import type { Collection } from '../../toolkit/interfaces/collection';
import type { RecordData } from '../../toolkit/record/record-utils';
import { type CollectionPlan, getCollectionPlan } from '../../operations/records/collection-plan';
import { packRecordId } from '../../operations/records/record-id';
import { encodeValue } from './encode-value';

/** A JSON:API resource object as the agent renders it (§7). */
export interface JsonApiResource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
}

/** A JSON:API document (§7.1). */
export interface JsonApiDocument {
  jsonapi: { version: '1.0' };
  data: JsonApiResource | JsonApiResource[] | null;
  included?: JsonApiResource[];
  meta?: { decorators: Record<string, { id: string; search: string[] }> };
}

class DocumentBuilder {
  /** Included resources in first-seen order, and the same by type then id. */
  private readonly included: JsonApiResource[] = [];
  private readonly includedByType = new Map<string, Map<string, JsonApiResource>>();

  resource(plan: CollectionPlan, record: RecordData): JsonApiResource {
    const id = packRecordId(plan, record);
    const attributes: Record<string, unknown> = {};
    const relationships: Record<string, unknown> = {};
    for (const key in record) {
      if (plan.columns.has(key)) attributes[key] = encodeValue(record[key]);
    }
    for (const [name, target] of plan.toOne) {
      if (!(name in record)) continue;
      const related = record[name] as RecordData | null | undefined;
      if (related === null || related === undefined) {
        relationships[name] = { data: null };
        continue;
      }
      const targetPlan = getCollectionPlan(target);
      const resource = this.resource(targetPlan, related);
      relationships[name] = { data: { type: resource.type, id: resource.id } };
      this.include(resource);
    }
    if (plan.toMany.length > 0) {
      const base = plan.linkPrefix + encodeURIComponent(id);
      for (const { name, linkSuffix } of plan.toMany) {
        relationships[name] = { links: { related: { href: base + linkSuffix } } };
      }
    }
    return { type: plan.collection.name, id, attributes, relationships };
  }

  private include(resource: JsonApiResource): void {
    let byId = this.includedByType.get(resource.type);
    if (!byId) {
      byId = new Map();
      this.includedByType.set(resource.type, byId);
    }
    const existing = byId.get(resource.id);
    if (!existing) {
      byId.set(resource.id, resource);
      this.included.push(resource);
      return;
    }
    Object.assign(existing.attributes, resource.attributes);
    Object.assign(existing.relationships, resource.relationships);
  }

  document(data: JsonApiResource | JsonApiResource[] | null): JsonApiDocument {
    const document: JsonApiDocument = { jsonapi: { version: '1.0' }, data };
    if (this.included.length > 0) document.included = this.included;
    return document;
  }
}

/** Serializes one record (or `null`) of a collection. */
export function serializeRecord(
  collection: Collection,
  record: RecordData | null,
): JsonApiDocument {
  const builder = new DocumentBuilder();
  return builder.document(record ? builder.resource(getCollectionPlan(collection), record) : null);
}

/**
 * Serializes a list of records; with a non-empty `search`, adds the highlighting metadata of
 * §7.6 (quirk 12: an object keyed by string integers; quirk 13: raw string comparison).
 */
export function serializeRecords(
  collection: Collection,
  records: readonly RecordData[],
  search?: string | null,
): JsonApiDocument {
  const builder = new DocumentBuilder();
  const plan = getCollectionPlan(collection);
  const data = records.map((record) => builder.resource(plan, record));
  const document = builder.document(data);
  if (search) {
    const needle = search.toLowerCase();
    const decorators: Record<string, { id: string; search: string[] }> = {};
    let index = 0;
    for (const resource of data) {
      const matches = Object.keys(resource.attributes).filter((key) => {
        const value = resource.attributes[key];
        return (
          value !== null &&
          value !== undefined &&
          (typeof value === 'object' ? JSON.stringify(value) : String(value))
            .toLowerCase()
            .includes(needle)
        );
      });
      if (matches.length > 0) {
        decorators[String(index)] = { id: resource.id, search: matches };
        index += 1;
      }
    }
    if (index > 0) document.meta = { decorators };
  }
  return document;
}
