import { ApiError } from '../errors';
import type { DeclaredCollection } from '../store/environment-schema';

interface Resource {
  type?: unknown;
  id?: unknown;
  attributes?: unknown;
  relationships?: { actions?: { data?: unknown } };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (path: string, expected: string) =>
  new ApiError(400, 'invalid_body', `Invalid schema upload: ${path} must be ${expected}.`);

/**
 * Validates the JSON:API document of `POST /forest/apimaps` (platform protocol 3.2) and returns
 * its hash and the collections it declares.
 *
 * @throws ApiError 400 naming the first path that does not have the expected shape.
 */
export function readSchemaDocument(document: unknown): {
  hash: string;
  collections: DeclaredCollection[];
} {
  if (!isObject(document)) throw invalid('the body', 'a JSON:API document (an object)');
  const { data, included = [], meta } = document;
  if (!Array.isArray(data)) throw invalid('data', 'an array of collections resources');
  if (!Array.isArray(included)) throw invalid('included', 'an array');
  if (!isObject(meta) || typeof meta.schemaFileHash !== 'string' || meta.schemaFileHash === '') {
    throw invalid('meta.schemaFileHash', 'a non-empty string');
  }
  const actionNames = new Map<string, string>();
  included.forEach((raw: unknown, index) => {
    const resource = raw as Resource;
    if (!isObject(raw) || typeof resource.type !== 'string' || resource.id === undefined) {
      throw invalid(`included[${index}]`, 'a resource with a type and an id');
    }
    const attributes = isObject(resource.attributes) ? resource.attributes : {};
    if (resource.type === 'actions') {
      if (typeof attributes.name !== 'string') {
        throw invalid(`included[${index}].attributes.name`, 'a string');
      }
      actionNames.set(String(resource.id), attributes.name);
    }
  });
  const names = new Set<string>();
  const collections = data.map((raw: unknown, index): DeclaredCollection => {
    const resource = raw as Resource;
    if (!isObject(raw) || resource.type !== 'collections' || !isObject(resource.attributes)) {
      throw invalid(`data[${index}]`, 'a collections resource with attributes');
    }
    const { name, fields } = resource.attributes;
    if (typeof name !== 'string' || name === '') {
      throw invalid(`data[${index}].attributes.name`, 'a non-empty string');
    }
    if (names.has(name))
      throw invalid(`data[${index}].attributes.name`, `unique ("${name}" repeats)`);
    names.add(name);
    if (!Array.isArray(fields)) throw invalid(`data[${index}].attributes.fields`, 'an array');
    const references = resource.relationships?.actions?.data ?? [];
    if (!Array.isArray(references)) {
      throw invalid(`data[${index}].relationships.actions.data`, 'an array');
    }
    return {
      name,
      actionNames: references.map((reference: unknown, position) => {
        const found = isObject(reference) ? actionNames.get(String(reference.id)) : undefined;
        if (found === undefined) {
          throw invalid(
            `data[${index}].relationships.actions.data[${position}]`,
            'an action listed in included',
          );
        }
        return found;
      }),
    };
  });
  return { hash: meta.schemaFileHash, collections };
}
