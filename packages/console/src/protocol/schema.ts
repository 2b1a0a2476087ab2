/**
 * The collection schema the console works from: the agent's schema file format (platform
 * protocol §13), which every agent of the protocol writes and uploads.
 */

/** A column type: a primitive name, a one-element array, or a composite object. */
export type ColumnType = string | [ColumnType] | { fields: { field: string; type: ColumnType }[] };

export type Relationship = 'BelongsTo' | 'HasOne' | 'HasMany' | 'BelongsToMany';

export interface SchemaField {
  field: string;
  type: ColumnType;
  enums?: string[] | null;
  defaultValue?: unknown;
  isFilterable?: boolean;
  isPrimaryKey?: boolean;
  isReadOnly?: boolean;
  isRequired?: boolean;
  isSortable?: boolean;
  isVirtual?: boolean;
  reference?: string | null;
  inverseOf?: string | null;
  relationship?: Relationship;
  validations?: { type: string; value?: unknown; message?: string | null }[];
  /** A `Number` field holding amounts of money: their currency (ISO 4217, `EUR`). */
  currency?: string | null;
}

export interface SchemaSegment {
  id?: string;
  name: string;
}

export interface SchemaCollection {
  name: string;
  fields: SchemaField[];
  segments?: SchemaSegment[];
  actions?: { name: string; type?: string; endpoint?: string }[];
  isReadOnly?: boolean;
  isSearchable?: boolean;
  onlyForRelationships?: boolean;
  isVirtual?: boolean;
}

export interface AgentSchema {
  collections: SchemaCollection[];
  meta?: Record<string, unknown>;
}

/** Reads a schema file document, or a JSON:API upload document (platform protocol §3.2). */
export function parseSchema(input: unknown): AgentSchema {
  if (!input || typeof input !== 'object') throw new Error('The schema is not a JSON object.');
  const document = input as Record<string, unknown>;
  if (Array.isArray(document.collections)) {
    return {
      collections: document.collections as SchemaCollection[],
      meta: document.meta as never,
    };
  }
  if (Array.isArray(document.data)) {
    const included = new Map<string, Record<string, unknown>>();
    for (const item of (document.included ?? []) as Record<string, unknown>[]) {
      included.set(`${String(item.type)}:${String(item.id)}`, item);
    }
    const resolve = (relation: unknown) =>
      (
        ((relation as { data?: { type: string; id: string }[] } | undefined)?.data ?? []) as {
          type: string;
          id: string;
        }[]
      ).map((ref) => ({
        // The resource id is the segment's or action's id (an action's `smart_action_id`).
        id: ref.id,
        ...((included.get(`${ref.type}:${ref.id}`)?.attributes as object) ?? {}),
      }));
    return {
      collections: (document.data as Record<string, unknown>[]).map((resource) => {
        const attributes = resource.attributes as SchemaCollection;
        const relationships = (resource.relationships ?? {}) as Record<string, unknown>;
        return {
          ...attributes,
          segments: relationships.segments
            ? (resolve(relationships.segments) as SchemaSegment[])
            : attributes.segments,
          actions: relationships.actions
            ? (resolve(relationships.actions) as never)
            : attributes.actions,
        };
      }),
      meta: document.meta as never,
    };
  }
  throw new Error('The schema has neither "collections" nor "data".');
}

export function isRelation(field: SchemaField): boolean {
  return field.relationship !== undefined && field.relationship !== null;
}

export function isToOne(field: SchemaField): boolean {
  return field.relationship === 'BelongsTo' || field.relationship === 'HasOne';
}

export function isToMany(field: SchemaField): boolean {
  return field.relationship === 'HasMany' || field.relationship === 'BelongsToMany';
}

/** `customers.id` → `customers`. */
export function targetCollection(field: SchemaField): string | undefined {
  if (!field.reference) return undefined;
  const dot = field.reference.lastIndexOf('.');
  return dot < 0 ? field.reference : field.reference.slice(0, dot);
}

export function primaryKeys(collection: SchemaCollection): SchemaField[] {
  return collection.fields.filter((field) => field.isPrimaryKey);
}

export function columns(collection: SchemaCollection): SchemaField[] {
  return collection.fields.filter((field) => !isRelation(field));
}

export function findField(collection: SchemaCollection, name: string): SchemaField | undefined {
  return collection.fields.find((field) => field.field === name);
}

/** The primitive type name of a field (`String`, `Number`…), `Array` or `Object` otherwise. */
export function typeName(type: ColumnType): string {
  if (typeof type === 'string') return type === 'Timeonly' ? 'Time' : type;
  return Array.isArray(type) ? 'Array' : 'Object';
}

/**
 * The field a person recognises a record by: a `name`/`title`/`label`/`reference`/`email`-like
 * string column, else the first string column, else the primary key.
 */
export function labelField(collection: SchemaCollection): string {
  // Fields imported from a relation (`customer@@@last_name`) describe another record.
  const strings = columns(collection).filter(
    (field) =>
      typeName(field.type) === 'String' && !field.isPrimaryKey && !field.field.includes('@@@'),
  );
  for (const wanted of [
    'name',
    'fullname',
    'full_name',
    'title',
    'label',
    'reference',
    'email',
    'sku',
  ]) {
    const match = strings.find((field) => field.field.toLowerCase() === wanted);
    if (match) return match.field;
  }
  return (
    strings.find((field) => !/_id$|Id$/.test(field.field))?.field ??
    primaryKeys(collection)[0]?.field ??
    collection.fields[0]?.field ??
    'id'
  );
}

/** `last_name` → `Last name`, `createdAt` → `Created at`, `address@@@city` → `Address city`. */
export function humanize(name: string): string {
  const words = name
    .replace(/@@@/g, ' ')
    .replace(/[_:.-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
