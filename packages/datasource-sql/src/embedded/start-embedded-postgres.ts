import type {
  EmbeddedPostgres as BaseEmbeddedPostgres,
  EmbeddedPostgresOptions,
} from '@canopy/embedded-postgres';

export type { EmbeddedPostgresOptions };

/**
 * A PostgreSQL running inside this process (PGlite), reachable over the wire protocol. Its `url`
 * carries `embedded=true`, which makes {@link createSqlDataSource} use a pool of exactly one
 * connection.
 */
export type EmbeddedPostgres = BaseEmbeddedPostgres;

/**
 * Starts Canopy's zero-install default database (`@canopy/embedded-postgres`), with a URL that
 * {@link createSqlDataSource} opens with a pool of one: PGlite has a single session. A start that
 * fails (port taken, unusable data directory) rejects with an error saying what and where.
 *
 * @example
 * const embedded = await startEmbeddedPostgres({ dataDir: '.canopy/db' });
 * agent.addDataSource(createSqlDataSource(embedded.url));
 * // on shutdown: await agent.stop(); await embedded.close();
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  // Loaded here: PGlite is heavy, and a data source on another database never needs it.
  const { startEmbeddedPostgres: startPglite } = await import('@canopy/embedded-postgres');
  const embedded = await startPglite(options);
  return {
    url: `${embedded.url}?embedded=true`,
    port: embedded.port,
    close: () => embedded.close(),
  };
}
