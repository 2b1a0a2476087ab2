import type { DataSourceFactory, Logger } from '@canopy/agent-core/toolkit';
import { connect } from './connection/connect';
import { parseConnection } from './connection/parse-connection';
import { describeConnection, type ResolvedConnection } from './connection/resolved-connection';
import { PgTypeParsers } from './connection/pg-type-parsers';
import type { SqlConnectionParams, SqlDialect } from './connection/sql-connection-params';
import type { Knex } from 'knex';
import { introspect as introspectDatabase } from './introspection/introspect';
import type { SqlIntrospection } from './introspection/introspection';
import { readIntrospection } from './introspection/read-introspection';
import { buildModels } from './schema/build-models';
import { PreparedStatements } from './query/prepared-statements';
import { StatementCache } from './query/statement-cache';
import type { CompiledStatement } from './query/statement-runner';
import { SqlDataSource } from './sql-data-source';
import { SqlDataSourceError } from './errors/sql-data-source-error';

/** Options of {@link createSqlDataSource}. */
export interface SqlDataSourceOptions {
  /**
   * A previous introspection (from `dataSource.introspection` or {@link introspect}), to skip
   * reading the catalog at start.
   */
  introspection?: SqlIntrospection | string;
  /** Name under which native SQL queries (charts, live-query segments) may run. */
  liveQueryConnections?: string;
  /**
   * How many compiled SELECTs (one per query shape: collection, projection, condition shape,
   * sort, page clauses; or aggregation) are kept, least recently used out first. Default 500;
   * 0 builds every query anew.
   */
  statementCacheSize?: number;
  /**
   * PostgreSQL: run cached SELECTs as named prepared statements, parsed and planned once per
   * connection (at most 100 per connection, least recently used deallocated first). Default
   * true; set it to false behind a connection pooler in transaction mode (PgBouncer's
   * `pool_mode = transaction` without its own prepared-statement support), where the next query
   * may reach a server session that never saw the statement. Ignored on other databases and on
   * the embedded PostgreSQL.
   */
  preparedStatements?: boolean;
}

/** Most statements kept prepared on one PostgreSQL connection. */
const PREPARED_PER_CONNECTION = 100;

/**
 * A data-source factory for `agent.addDataSource(...)`: connects, introspects the schema (or
 * reuses `options.introspection`) and exposes one collection per table and view.
 *
 * @example
 * agent.addDataSource(
 *   createSqlDataSource('postgres://app@db:5432/shop?schema=public', { liveQueryConnections: 'main' }),
 * );
 */
export function createSqlDataSource(
  uriOrParams: string | SqlConnectionParams,
  options: SqlDataSourceOptions = {},
): DataSourceFactory {
  return async (logger?: Logger) => openSqlDataSource(uriOrParams, options, logger);
}

async function hasMariadbReturning(knex: Knex, dialect: SqlDialect): Promise<boolean> {
  if (dialect !== 'mysql' && dialect !== 'mariadb') return false;
  const [rows] = (await knex.raw('SELECT VERSION() AS version')) as [Array<{ version: string }>];
  const match = /^(\d+)\.(\d+).*MariaDB/i.exec(rows[0]?.version ?? '');
  return match !== null && Number(match[1]) * 100 + Number(match[2]) >= 1005;
}

function statementCacheSize(options: SqlDataSourceOptions): number {
  const size = options.statementCacheSize ?? 500;
  if (!Number.isInteger(size) || size < 0) {
    throw new SqlDataSourceError(
      'INVALID_CONNECTION_OPTIONS',
      `Invalid statementCacheSize ${String(size)}: use a non-negative integer (0 disables the cache).`,
    );
  }
  return size;
}

function preparedStatements(
  options: SqlDataSourceOptions,
  connection: ResolvedConnection,
): PreparedStatements | undefined {
  const enabled = options.preparedStatements ?? true;
  if (typeof enabled !== 'boolean') {
    throw new SqlDataSourceError(
      'INVALID_CONNECTION_OPTIONS',
      `Invalid preparedStatements ${String(enabled)}: use true or false.`,
    );
  }
  // Not on the embedded PostgreSQL: its one session is shared by every connection and outlives
  // them, with the statements prepared in it.
  return enabled && connection.dialect === 'postgres' && !connection.embedded
    ? new PreparedStatements(PREPARED_PER_CONNECTION)
    : undefined;
}

/**
 * Replaces the pool's connections by new ones. A PostgreSQL backend that ran the introspection's
 * catalog queries stays slower for the queries that follow (a parallel COUNT over 250,000 rows
 * measured about 40% slower than on a new connection), so queries start on new connections.
 */
async function renewConnections(knex: Knex): Promise<void> {
  await knex.destroy();
  knex.initialize();
}

/** Builds the data source right away (what the factory does when the agent starts). */
export async function openSqlDataSource(
  uriOrParams: string | SqlConnectionParams,
  options: SqlDataSourceOptions = {},
  logger?: Logger,
): Promise<SqlDataSource> {
  const connection = parseConnection(uriOrParams);
  const cacheSize = statementCacheSize(options);
  const prepared = preparedStatements(options, connection);
  const parsers = new PgTypeParsers();
  const { knex } = await connect(connection, parsers);
  try {
    const introspection = options.introspection
      ? readIntrospection(options.introspection, connection.dialect)
      : await introspectDatabase(knex, connection);
    if (!options.introspection && connection.dialect === 'postgres' && !connection.embedded) {
      await renewConnections(knex);
    }
    const { models, warnings } = buildModels(introspection);
    for (const warning of [...introspection.warnings, ...warnings]) logger?.('Warn', warning);
    if (models.size === 0) {
      logger?.('Warn', `No table or view found in ${describeConnection(connection)}.`);
    }
    return new SqlDataSource(
      {
        knex,
        dialect: connection.dialect,
        schema: connection.dialect === 'postgres' ? connection.schema : undefined,
        models,
        mariadbReturning: await hasMariadbReturning(knex, connection.dialect),
        statements: cacheSize > 0 ? new StatementCache<CompiledStatement>(cacheSize) : undefined,
        prepared,
      },
      introspection,
      options.liveQueryConnections,
    );
  } catch (error) {
    await knex.destroy();
    throw error;
  }
}

/**
 * Connects, introspects and disconnects: the serializable introspection to pass back as
 * `options.introspection` on later starts.
 */
export async function introspect(
  uriOrParams: string | SqlConnectionParams,
): Promise<SqlIntrospection> {
  const connection = parseConnection(uriOrParams);
  const { knex } = await connect(connection, new PgTypeParsers());
  try {
    return await introspectDatabase(knex, connection);
  } finally {
    await knex.destroy();
  }
}
