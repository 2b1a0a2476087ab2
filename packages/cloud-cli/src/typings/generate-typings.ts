import { existsSync } from 'node:fs';
import { createAgent, type Agent as CoreAgent } from '@canopy/agent-core';
import { createSqlDataSource } from '@canopy/datasource-sql';
import { require as tsxRequire } from 'tsx/cjs/api';
import { CliError } from '../cli-error';
import { TYPINGS_MAX_DEPTH, projectFiles } from './project-files';

/** What the agent needs to read the database structure. */
export interface TypingsSource {
  directory: string;
  databaseUrl: string;
  envSecret: string;
  authSecret: string;
}

/**
 * Writes `src/typings.ts` (and `.canopy-schema.json`) of a customization directory: builds an
 * agent on the database, applies the customization function default-exported by
 * `src/index.ts` (so computed fields, relations and actions added in code appear), and runs the
 * agent's `generateSchemaOnly()`. The agent is never started and never calls the platform.
 * Database connections stay open: the CLI process exits right after.
 */
export async function generateTypings(source: TypingsSource): Promise<void> {
  const files = projectFiles(source.directory);
  const agent = createAgent({
    authSecret: source.authSecret,
    envSecret: source.envSecret,
    schemaPath: files.schema,
    typingsPath: files.typings,
    typingsMaxDepth: TYPINGS_MAX_DEPTH,
    logger: () => {},
  });
  agent.addDataSource(createSqlDataSource(source.databaseUrl));
  if (existsSync(files.entry)) loadCustomization(files.entry)(agent);
  try {
    await agent.generateSchemaOnly();
  } catch (error) {
    throw new CliError(
      'DATABASE_ERROR',
      `Cannot build the schema from DATABASE_URL and src/index.ts (${describe(error, source.databaseUrl)}); check that the database is running and your customizations name existing collections and fields.`,
      { cause: error },
    );
  }
}

function loadCustomization(entry: string): (agent: CoreAgent) => void {
  let loaded: unknown;
  try {
    loaded = tsxRequire(entry, __filename);
  } catch (error) {
    throw new CliError(
      'CUSTOMIZATION_FAILED',
      `src/index.ts failed to load (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); fix it and run canopy-cloud update-typings again.`,
      { cause: error },
    );
  }
  const candidate =
    typeof loaded === 'function' ? loaded : (loaded as { default?: unknown } | null)?.default;
  if (typeof candidate !== 'function') {
    throw new CliError(
      'CUSTOMIZATION_FAILED',
      'src/index.ts must default-export a function that receives the agent, such as `export default function customizeAgent(agent: Agent<Schema>) {}`.',
    );
  }
  return (agent) => {
    try {
      candidate(agent);
    } catch (error) {
      throw new CliError(
        'CUSTOMIZATION_FAILED',
        `The customization function of src/index.ts threw (${error instanceof Error ? error.message : String(error)}); fix it and try again.`,
        { cause: error },
      );
    }
  };
}

/** An error's message without the database URL (it may hold a password). */
function describe(error: unknown, databaseUrl: string): string {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return (message ?? '').split(databaseUrl).join('DATABASE_URL');
}
