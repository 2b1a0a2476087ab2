import { serializeRecords } from '../../protocol/serializer/json-api';
import type { RecordsAnswer } from '../agent-operations';

/** A record as tools return it: attributes, to-one relations as nested records. */
export type ToolRecord = Record<string, unknown>;

interface Resource {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { type: string; id: string } | null } | undefined>;
}

interface Document {
  data?: Resource | Resource[] | null;
  included?: Resource[];
}

/** The fields the published schema shows for a collection (`undefined`: show every attribute). */
export type SchemaFieldNames = (collectionName: string) => ReadonlySet<string> | undefined;

/**
 * The records an operation read or wrote, as tools return them: serialized as the REST interface
 * serializes them (JSON:API, values in their wire form), then flattened by
 * {@link recordsFromDocument}.
 */
export function toolRecords(answer: RecordsAnswer, shown: SchemaFieldNames): ToolRecord[] {
  // Parsed from the answer's JSON text: values already in their wire form.
  return recordsFromDocument(serializeRecords(answer.collection, answer.records), shown);
}

/**
 * Turns a JSON:API document into plain records for the model: the attributes the
 * published schema shows (foreign-key columns it hides stay hidden), each linked to-one relation
 * as a nested record from `included` (`null` when unlinked). To-many relations are left out:
 * `listRelated` reads them.
 */
export function recordsFromDocument(document: unknown, shown: SchemaFieldNames): ToolRecord[] {
  const { data, included = [] } = (document ?? {}) as Document;
  const byKey = new Map(included.map((resource) => [`${resource.type}|${resource.id}`, resource]));
  const toRecord = (resource: Resource, depth: number): ToolRecord => {
    const fields = shown(resource.type);
    const record: ToolRecord = {};
    for (const [name, value] of Object.entries(resource.attributes ?? {})) {
      if (!fields || fields.has(name)) record[name] = value;
    }
    for (const [name, relationship] of Object.entries(resource.relationships ?? {})) {
      if (!relationship || !('data' in relationship) || Array.isArray(relationship.data)) continue;
      const linkage = relationship.data;
      if (!linkage) {
        record[name] = null;
        continue;
      }
      const target = byKey.get(`${linkage.type}|${linkage.id}`);
      record[name] = target && depth < 3 ? toRecord(target, depth + 1) : { id: linkage.id };
    }
    return record;
  };
  if (!data) return [];
  return (Array.isArray(data) ? data : [data]).map((resource) => toRecord(resource, 0));
}
