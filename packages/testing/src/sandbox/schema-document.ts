import type { SandboxSchema, SchemaCollection } from './types';

interface Resource {
  type?: unknown;
  id?: unknown;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { type?: unknown; id?: unknown }[] }>;
}

/**
 * Reads the JSON:API document of `POST /forest/apimaps` (platform protocol 3.2) back into the
 * shape of the schema file: one collection per `collections` resource, with its `segments` and
 * `actions` relationships resolved from `included`.
 *
 * @throws Error naming the path that does not have the expected shape.
 */
export function schemaFromDocument(document: unknown): {
  schema: SandboxSchema;
  hash: string | undefined;
} {
  if (!isObject(document)) throw new Error('body must be a JSON:API document (an object)');
  const { data, included = [], meta = {} } = document as Record<string, unknown>;
  if (!Array.isArray(data)) throw new Error('data must be an array of collections resources');
  if (!Array.isArray(included)) throw new Error('included must be an array');
  if (!isObject(meta)) throw new Error('meta must be an object');

  const byKey = new Map<string, Record<string, unknown>>();
  included.forEach((raw: unknown, index) => {
    const resource = (isObject(raw) ? raw : {}) as Resource;
    if (!isObject(raw) || typeof resource.type !== 'string' || resource.id === undefined) {
      throw new Error(`included[${index}] must have a type and an id`);
    }
    byKey.set(`${resource.type}:${String(resource.id)}`, resource.attributes ?? {});
  });

  const collections = data.map((raw: unknown, index): SchemaCollection => {
    const resource = (isObject(raw) ? raw : {}) as Resource;
    const attributes = resource.attributes;
    if (resource.type !== 'collections' || !isObject(attributes)) {
      throw new Error(`data[${index}] must be a collections resource with attributes`);
    }
    if (typeof attributes.name !== 'string' || attributes.name === '') {
      throw new Error(`data[${index}].attributes.name must be a non-empty string`);
    }
    const related = (name: 'actions' | 'segments') =>
      (resource.relationships?.[name]?.data ?? []).map((reference, position) => {
        const found = byKey.get(`${String(reference.type)}:${String(reference.id)}`);
        if (!found) {
          throw new Error(
            `data[${index}].relationships.${name}.data[${position}] is not in included`,
          );
        }
        return { id: String(reference.id), ...found };
      });
    return {
      ...attributes,
      name: attributes.name,
      fields: Array.isArray(attributes.fields) ? attributes.fields : [],
      actions: related('actions') as SchemaCollection['actions'],
      segments: related('segments'),
    };
  });

  const { schemaFileHash, ...rest } = meta as Record<string, unknown>;
  return {
    schema: { collections, meta: rest },
    hash: typeof schemaFileHash === 'string' ? schemaFileHash : undefined,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
