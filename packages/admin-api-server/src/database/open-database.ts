import knexFactory, { type Knex } from 'knex';
import type { DatabaseConfig } from '../config';
import { startEmbeddedPostgres } from '@canopy/embedded-postgres';

/** An open database and how to release what was opened for it. */
export interface OpenDatabase {
  readonly knex: Knex;
  /** Closes the pool and the embedded server if this module started them; never a passed-in knex. */
  close(): Promise<void>;
}

const STATEMENT_TIMEOUT_MS = 30_000;

/** Knex settings for a `postgres://` URL; `?schema=name` becomes the search path. */
export function knexConfigFromUrl(url: string, poolSize: number): Knex.Config {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get('schema');
  parsed.searchParams.delete('schema');
  return {
    client: 'pg',
    connection: { connectionString: parsed.toString(), statement_timeout: STATEMENT_TIMEOUT_MS },
    ...(schema ? { searchPath: [schema] } : {}),
    pool: { min: 0, max: poolSize },
  };
}

/**
 * Opens the configured database: a URL (its `?schema=` is created when missing), a given knex, or
 * the embedded PostgreSQL.
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  if (config.kind === 'knex') return { knex: config.knex, close: async () => undefined };
  if (config.kind === 'url') {
    const settings = knexConfigFromUrl(config.url, config.poolSize);
    const knex = knexFactory(settings);
    const schema = (settings.searchPath as string[] | undefined)?.[0];
    if (schema !== undefined) {
      try {
        await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
      } catch (error) {
        await knex.destroy();
        throw error;
      }
    }
    return { knex, close: () => knex.destroy() };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
  const knex = knexFactory(knexConfigFromUrl(embedded.url, 1));
  return {
    knex,
    async close() {
      await knex.destroy();
      await embedded.close();
    },
  };
}
