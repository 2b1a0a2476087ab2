import { compareNames } from '../toolkit/compare-names';
import type { DataSource } from '../toolkit/interfaces/data-source';
import type { ActionRouteOptions } from './action-schema-generator';
import { generateCollection } from './collection-schema-generator';
import { buildSchemaMeta } from './schema-meta';
import type { AgentSchema } from './schema-json';

/**
 * Builds the schema file's content from the customized data source (protocol §13): collections
 * sorted by name (locale-aware), each with sorted fields, actions and segments, and `meta`. The
 * output is deterministic: the same data source always gives the same JSON, so its hash only
 * changes when the schema does.
 */
export async function generateSchema(
  dataSource: DataSource,
  options: ActionRouteOptions,
): Promise<AgentSchema> {
  const collections = await Promise.all(
    [...dataSource.collections]
      .sort((a, b) => compareNames(a.name, b.name))
      .map((collection) => generateCollection(collection, options)),
  );
  return { collections, meta: buildSchemaMeta() };
}
