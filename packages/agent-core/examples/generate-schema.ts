import { join } from 'node:path';
import { type DataSource, createAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';

/**
 * A one-shot script (CI, a build step): writes `.canopy-schema.json` and `typings.ts` without
 * starting the agent nor contacting the platform. No serverUrl is needed.
 */
export async function generateSchema(config: { databaseUrl: string; directory: string }) {
  let opened: DataSource | undefined;
  const agent = createAgent({
    authSecret: 'a-long-random-string',
    envSecret: 'ab'.repeat(32),
    isProduction: true, // generateSchemaOnly rebuilds the schema file even in production
    schemaPath: join(config.directory, '.canopy-schema.json'),
    typingsPath: join(config.directory, 'typings.ts'),
    typingsMaxDepth: 2,
    loggerLevel: 'Warn',
  }).addDataSource(async (logger, restartAgent) => {
    // generateSchemaOnly leaves connections open: keep the data source to close it (or exit).
    opened = await createSqlDataSource(config.databaseUrl)(logger, restartAgent);
    return opened;
  });

  await agent.generateSchemaOnly();
  await opened?.close?.();

  // Only the typings, elsewhere, 1 relation deep (the data source is opened and closed again).
  await agent.updateTypesOnFileSystem(join(config.directory, 'shallow-typings.ts'), 1);
}
