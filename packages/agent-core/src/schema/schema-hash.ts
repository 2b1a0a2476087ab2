import { createHash } from 'node:crypto';
import type { AgentSchema } from './schema-json';

/**
 * `schemaFileHash` (protocol §3.3): lowercase hex SHA-1 of the compact JSON of
 * `{collections, meta}`, collections first.
 */
export function hashSchema(schema: AgentSchema): string {
  const text = JSON.stringify({ collections: schema.collections, meta: schema.meta });
  return createHash('sha1').update(text).digest('hex');
}
