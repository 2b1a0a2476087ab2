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

/**
 * The JSON text of a collection's constant parts, derived once from its plan: the documents are
 * written as text, each value through `JSON.stringify`, so that a page of records is not first
 * copied into resource objects that `JSON.stringify` then walks (half of a list's serialization
 * cost).
 */
interface WirePlan {
  readonly plan: CollectionPlan;
  /** `"<name>"` */
  readonly type: string;
  /** `{"type":"<name>","id":` */
  readonly head: string;
  /** Column name → `"<name>":`. */
  readonly columnKeys: ReadonlyMap<string, string>;
  /** To-one relations: name, `"<name>":`, and the target's wire plan (derived on first use). */
  readonly toOne: readonly ToOneRelation[];
  /**
   * To-many relations: name, `"<name>":{"links":{"related":{"href":"` and
   * `/relationships/<name>"}}}`, around the record's link prefix and id.
   */
  readonly toMany: readonly {
    readonly name: string;
    readonly open: string;
    readonly close: string;
  }[];
  /** `/forest/<collection>/` as JSON string content. */
  readonly linkPrefix: string;
  /**
   * A relation's name is an array index ("0", "12"): `JSON.stringify` of an object writes such
   * keys first, so the writer orders the relationships the same way.
   */
  readonly indexLikeRelations: boolean;
}

interface ToOneRelation {
  readonly name: string;
  readonly key: string;
  readonly target: Collection;
  targetWire?: WirePlan;
}

const WIRE_PLANS = new WeakMap<CollectionPlan, WirePlan>();

/** The text of `value` inside a JSON string (the quotes left out). */
function stringContent(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** Longest string that {@link jsonString} checks itself before handing it to `JSON.stringify`. */
const CHECKED_LENGTH = 64;

/**
 * `JSON.stringify(value)` of a string. A short string without a character that JSON escapes (a
 * quote, a backslash, a control character) or that `JSON.stringify` may escape (a surrogate) is
 * written between quotes as it is: the check costs less than the call, for the ids, statuses,
 * timestamps and names that most values are.
 */
export function jsonString(value: string): string {
  if (value.length > CHECKED_LENGTH) return JSON.stringify(value);
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(value);
    }
  }
  return `"${value}"`;
}

/** Whether a property key is an array index, which objects enumerate first in ascending order. */
function isArrayIndex(key: string): boolean {
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

function wirePlan(plan: CollectionPlan): WirePlan {
  let wire = WIRE_PLANS.get(plan);
  if (wire) return wire;
  const key = (name: string) => `${JSON.stringify(name)}:`;
  const relationNames = [...plan.toOne.keys(), ...plan.toMany.map(({ name }) => name)];
  const type = JSON.stringify(plan.collection.name);
  wire = {
    plan,
    type,
    head: `{"type":${type},"id":`,
    columnKeys: new Map([...plan.columns].map((name) => [name, key(name)])),
    toOne: [...plan.toOne].map(([name, target]) => ({ name, key: key(name), target })),
    toMany: plan.toMany.map(({ name, linkSuffix }) => ({
      name,
      open: `${key(name)}{"links":{"related":{"href":"`,
      close: `${stringContent(linkSuffix)}"}}}`,
    })),
    linkPrefix: stringContent(plan.linkPrefix),
    indexLikeRelations: relationNames.some(isArrayIndex),
  };
  WIRE_PLANS.set(plan, wire);
  return wire;
}

/**
 * A resource being written: its record, and its relationships' names and `"<name>":<value>`
 * texts, in the order the object form would hold them.
 */
interface Resource {
  readonly wire: WirePlan;
  readonly id: string;
  record: RecordData;
  readonly relationNames: string[];
  readonly relationTexts: string[];
}

/**
 * Collects the resources of one document — the records asked for and, once each, the to-one
 * records they link (`included`) — then writes it as text.
 */
class DocumentWriter {
  /** Included resources in first-seen order, and the same by type then id. */
  private readonly included: Resource[] = [];
  private readonly includedByType = new Map<string, Map<string, Resource>>();

  resource(wire: WirePlan, record: RecordData): Resource {
    const id = packRecordId(wire.plan, record);
    const relationNames: string[] = [];
    const relationTexts: string[] = [];
    for (const relation of wire.toOne) {
      if (!(relation.name in record)) continue;
      const related = record[relation.name] as RecordData | null | undefined;
      relationNames.push(relation.name);
      if (related === null || related === undefined) {
        relationTexts.push(`${relation.key}{"data":null}`);
        continue;
      }
      relation.targetWire ??= wirePlan(getCollectionPlan(relation.target));
      const resource = this.resource(relation.targetWire, related);
      relationTexts.push(
        `${relation.key}{"data":{"type":${resource.wire.type},"id":${jsonString(resource.id)}}}`,
      );
      this.include(resource);
    }
    if (wire.toMany.length > 0) {
      // encodeURIComponent leaves no character that a JSON string would escape.
      const base = wire.linkPrefix + encodeURIComponent(id);
      for (const { name, open, close } of wire.toMany) {
        relationNames.push(name);
        relationTexts.push(open + base + close);
      }
    }
    return { wire, id, record, relationNames, relationTexts };
  }

  /**
   * Adds a linked resource to `included`; a resource seen before takes the later values of its
   * attributes and relationships (as `Object.assign` would), in the places they first had.
   */
  private include(resource: Resource): void {
    const type = resource.wire.plan.collection.name;
    let byId = this.includedByType.get(type);
    if (!byId) {
      byId = new Map();
      this.includedByType.set(type, byId);
    }
    const existing = byId.get(resource.id);
    if (!existing) {
      byId.set(resource.id, resource);
      this.included.push(resource);
      return;
    }
    existing.record = { ...existing.record, ...resource.record };
    resource.relationNames.forEach((name, index) => {
      const text = resource.relationTexts[index] as string;
      const at = existing.relationNames.indexOf(name);
      if (at >= 0) existing.relationTexts[at] = text;
      else {
        existing.relationNames.push(name);
        existing.relationTexts.push(text);
      }
    });
  }

  /** The document's text: `data` (one resource, a list, or `null`), `included`, `meta`. */
  write(data: Resource | Resource[] | null, meta?: JsonApiDocument['meta']): string {
    let text = '{"jsonapi":{"version":"1.0"},"data":';
    if (data === null) text += 'null';
    else if (Array.isArray(data)) text += `[${writeResources(data)}]`;
    else text += writeResource(data);
    if (this.included.length > 0) text += `,"included":[${writeResources(this.included)}]`;
    if (meta) text += `,"meta":${JSON.stringify(meta)}`;
    return `${text}}`;
  }
}

/** The wire values of a resource's attributes (its record's columns, in the record's order). */
function attributeEntries(wire: WirePlan, record: RecordData): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const key in record) {
    if (wire.columnKeys.has(key)) entries.push([key, encodeValue(record[key])]);
  }
  return entries;
}

function writeResources(resources: readonly Resource[]): string {
  let text = '';
  for (let index = 0; index < resources.length; index += 1) {
    text +=
      index === 0
        ? writeResource(resources[index] as Resource)
        : `,${writeResource(resources[index] as Resource)}`;
  }
  return text;
}

function writeResource(resource: Resource): string {
  const { wire, record } = resource;
  let attributes = '';
  for (const key in record) {
    const member = wire.columnKeys.get(key);
    if (member === undefined) continue;
    // `undefined` (and functions) are left out, as `JSON.stringify` leaves them out of an object.
    const value = jsonValue(record[key]);
    if (value === undefined) continue;
    attributes += attributes === '' ? member + value : `,${member}${value}`;
  }
  let relationships = '';
  for (const text of relationshipTexts(resource)) {
    relationships += relationships === '' ? text : `,${text}`;
  }
  return `${wire.head}${jsonString(resource.id)},"attributes":{${attributes}},"relationships":{${relationships}}}`;
}

/**
 * A value's JSON text, `undefined` when an object would leave it out: `JSON.stringify` of its wire
 * form. Numbers, booleans, null and dates are written without it (`String` of a finite number is
 * its JSON text), strings through {@link jsonString}: one call per value cost as much as the rest
 * of the writer.
 */
function jsonValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return jsonString(value);
    default:
      if (value === null) return 'null';
      // A date is its `toJSON()`: the ISO instant (nothing in it to escape), or null when invalid.
      if (value instanceof Date && value.toJSON === Date.prototype.toJSON) {
        return Number.isNaN(value.getTime()) ? 'null' : `"${value.toISOString()}"`;
      }
      return JSON.stringify(encodeValue(value)) as string | undefined;
  }
}

/** A resource's relationship members in the order `JSON.stringify` would write their object. */
function relationshipTexts(resource: Resource): readonly string[] {
  const { relationNames, relationTexts } = resource;
  if (!resource.wire.indexLikeRelations) return relationTexts;
  const order = relationNames.map((_, index) => index);
  return [
    ...order
      .filter((index) => isArrayIndex(relationNames[index] as string))
      .sort((a, b) => Number(relationNames[a]) - Number(relationNames[b])),
    ...order.filter((index) => !isArrayIndex(relationNames[index] as string)),
  ].map((index) => relationTexts[index] as string);
}

/** The JSON:API document of one record (or `null`) of a collection, as text. */
export function writeRecord(collection: Collection, record: RecordData | null): string {
  const writer = new DocumentWriter();
  return writer.write(
    record ? writer.resource(wirePlan(getCollectionPlan(collection)), record) : null,
  );
}

/**
 * The JSON:API document of a list of records, as text; with a non-empty `search`, with the
 * highlighting metadata of §7.6 (quirk 12: an object keyed by string integers; quirk 13: raw
 * string comparison).
 */
export function writeRecords(
  collection: Collection,
  records: readonly RecordData[],
  search?: string | null,
): string {
  const writer = new DocumentWriter();
  const wire = wirePlan(getCollectionPlan(collection));
  const data = records.map((record) => writer.resource(wire, record));
  return writer.write(data, search ? searchMeta(data, search) : undefined);
}

/** Which attributes of each listed record contain `search`, or nothing when none does. */
function searchMeta(data: readonly Resource[], search: string): JsonApiDocument['meta'] {
  const needle = search.toLowerCase();
  const decorators: Record<string, { id: string; search: string[] }> = {};
  let index = 0;
  for (const resource of data) {
    const matches = attributeEntries(resource.wire, resource.record)
      .filter(
        ([, value]) =>
          value !== null &&
          value !== undefined &&
          (typeof value === 'object' ? JSON.stringify(value) : String(value))
            .toLowerCase()
            .includes(needle),
      )
      .map(([key]) => key);
    if (matches.length > 0) {
      decorators[String(index)] = { id: resource.id, search: matches };
      index += 1;
    }
  }
  return index > 0 ? { decorators } : undefined;
}

/** {@link writeRecord} as an object: the document a client reads. */
export function serializeRecord(
  collection: Collection,
  record: RecordData | null,
): JsonApiDocument {
  return JSON.parse(writeRecord(collection, record)) as JsonApiDocument;
}

/** {@link writeRecords} as an object: the document a client reads. */
export function serializeRecords(
  collection: Collection,
  records: readonly RecordData[],
  search?: string | null,
): JsonApiDocument {
  return JSON.parse(writeRecords(collection, records, search)) as JsonApiDocument;
}
