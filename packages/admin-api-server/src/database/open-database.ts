import knexFactory, { type Knex } from 'knex';
import type { DatabaseConfig } from '../config';
import { startEmbeddedPostgres } from '@canopy/embedded-postgres';

/** An open database and how to release what was opened for it. */
export interface OpenDatabase {
  readonly knex: Knex;
  /**
   * True on the embedded store: one connection, so nothing may hold one for long (no LISTEN
   * connection) and a request waits at most {@link EMBEDDED_ACQUIRE_TIMEOUT_MS} for it.
   */
  readonly embedded: boolean;
  /** Closes the pool and the embedded server if this module started them; never a passed-in knex. */
  close(): Promise<void>;
}

const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * How long a query waits for the embedded store's one connection before it fails with knex's
 * `KnexTimeoutError`, which the error handler answers as a 503 saying the store is busy. Requests
 * queue for the connection one after the other (a few milliseconds each), so several Console tabs
 * and users are served; a wait this long means the store is overloaded, and a client is better told
 * so than left hanging for knex's default minute.
 */
export const EMBEDDED_ACQUIRE_TIMEOUT_MS = 5_000;

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
 * the embedded PostgreSQL (a pool of one connection, see {@link EMBEDDED_ACQUIRE_TIMEOUT_MS}).
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase> {
  if (config.kind === 'knex') {
    return { knex: config.knex, embedded: false, close: async () => undefined };
  }
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
    return { knex, embedded: false, close: () => knex.destroy() };
  }
  // A test may hand over an embedded PostgreSQL it started (and stops) itself.
  const server = 'url' in config ? undefined : await startEmbeddedPostgres(config);
  const knex = knexFactory({
    ...knexConfigFromUrl('url' in config ? config.url : server!.url, 1),
    acquireConnectionTimeout: EMBEDDED_ACQUIRE_TIMEOUT_MS,
  });
  return {
    knex,
    embedded: true,
    async close() {
      await knex.destroy();
      await server?.close();
    },
  };
}
