import { customizationView } from '../customizer/decorator-stack';
import { generateSchema } from '../schema/schema-generator';
import { readSchemaFile, writeIfChanged, writeSchemaFile } from '../schema/schema-file';
import type { AgentSchema } from '../schema/schema-json';
import { buildSchemaMeta } from '../schema/schema-meta';
import { generateTypings } from '../schema/typings-generator';
import type { DataSource } from '../toolkit/interfaces/data-source';
import type { Logger } from '../toolkit/interfaces/logger';
import type { ResolvedAgentOptions } from './agent-options';

/**
 * The schema to serve and send (protocol §13.1): in development, built from the customized data
 * source and written to `schemaPath` (only when it changed); in production, the collections of
 * the existing file with `meta` rebuilt from the running agent.
 *
 * @throws SchemaFileError in production when the file is missing or invalid.
 */
export async function prepareSchema(
  dataSource: DataSource,
  options: ResolvedAgentOptions,
  rebuild = !options.isProduction,
): Promise<AgentSchema> {
  if (!rebuild) {
    const collections = await readSchemaFile(options.schemaPath);
    return { collections, meta: buildSchemaMeta() };
  }
  const schema = await generateSchema(dataSource, options);
  if (await writeSchemaFile(options.schemaPath, schema)) {
    options.logger('Info', `Schema written to ${options.schemaPath}.`);
  }
  return schema;
}

/**
 * Writes the typings of the customized data source (only when they changed): the names
 * customization code uses, and the names the agent exports.
 */
export async function writeTypings(
  dataSource: DataSource,
  path: string,
  maxDepth: number,
  logger: Logger,
): Promise<void> {
  if (
    await writeIfChanged(path, generateTypings(customizationView(dataSource), maxDepth, dataSource))
  ) {
    logger('Info', `Typings written to ${path}.`);
  }
}
