import type { AgentSchema } from './schema-json';

/** The JSON:API document of `POST /forest/apimaps` (protocol §3.2). */
export interface SchemaDocument {
  jsonapi: { version: '1.0' };
  meta: AgentSchema['meta'] & { schemaFileHash: string };
  data: {
    type: 'collections';
    id: string;
    attributes: Record<string, unknown>;
    relationships: {
      segments: { data: { type: 'segments'; id: string }[] };
      actions: { data: { type: 'actions'; id: string }[] };
    };
  }[];
  included: { type: 'segments' | 'actions'; id: string; attributes: Record<string, unknown> }[];
}

/**
 * Serializes the schema for upload: one `collections` resource per collection with its fields
 * inline, segments and actions as relationships whose full objects are in `included`, and the
 * hash added to `meta`.
 */
export function toSchemaDocument(schema: AgentSchema, schemaFileHash: string): SchemaDocument {
  const included: SchemaDocument['included'] = [];
  const data = schema.collections.map((collection) => {
    const { actions, segments, ...attributes } = collection;
    for (const { id, ...rest } of segments)
      included.push({ type: 'segments', id, attributes: rest });
    for (const { id, ...rest } of actions) included.push({ type: 'actions', id, attributes: rest });
    return {
      type: 'collections' as const,
      id: collection.name,
      attributes: attributes as Record<string, unknown>,
      relationships: {
        segments: { data: segments.map(({ id }) => ({ type: 'segments' as const, id })) },
        actions: { data: actions.map(({ id }) => ({ type: 'actions' as const, id })) },
      },
    };
  });
  return {
    jsonapi: { version: '1.0' },
    meta: { ...schema.meta, schemaFileHash },
    data,
    included,
  };
}
