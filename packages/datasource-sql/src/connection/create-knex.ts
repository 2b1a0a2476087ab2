import knexFactory, { type Knex } from 'knex';
import type { ConnectionOptions } from 'node:tls';
import type { PgTypeParsers } from './pg-type-parsers';
import type { ResolvedConnection } from './resolved-connection';
import type { SslMode } from './sql-connection-params';
import { SqlDataSourceError } from '../errors/sql-data-source-error';

type Done = (error: Error | null, connection: unknown) => void;
interface CallbackClient {
  query(sql: string, callback: (error: Error | null) => void): void;
}
interface MysqlClient extends CallbackClient {
  query(
    sql: string,
    callback: (error: Error | null, rows?: Array<{ version?: unknown }>) => void,
  ): void;
}
interface SqliteDatabase {
  pragma(source: string): unknown;
  defaultSafeIntegers(enabled: boolean): unknown;
  function(
    name: string,
    options: { deterministic: boolean },
    implementation: (...values: unknown[]) => unknown,
  ): unknown;
}

/** SQLite has no regular expressions: `canopy_regexp(value, pattern, flags)` brings JS ones. */
function regexp(value: unknown, pattern: unknown, flags: unknown): number | null {
  if (value === null || value === undefined) return null;
  return new RegExp(String(pattern), String(flags ?? '')).test(String(value)) ? 1 : 0;
}

function tlsOptions(connection: ResolvedConnection, mode: SslMode): ConnectionOptions | undefined {
  switch (mode) {
    case 'disabled':
      return undefined;
    case 'required':
      return { ...connection.ssl, rejectUnauthorized: false };
    case 'verify':
      // The original host name is sent as SNI so verification works behind SNI-routed proxies.
      return { ...connection.ssl, rejectUnauthorized: true, servername: connection.host };
    default:
      return connection.ssl;
  }
}

function runAll(client: CallbackClient, statements: string[], done: Done): void {
  const [first, ...rest] = statements;
  if (first === undefined) {
    done(null, client);
    return;
  }
  client.query(first, (error) => {
    if (error) done(error, client);
    else runAll(client, rest, done);
  });
}

function pgConfig(
  connection: ResolvedConnection,
  mode: SslMode,
  parsers: PgTypeParsers,
): Knex.Config {
  return {
    client: 'pg',
    connection: {
      ...connection.driverOptions,
      host: connection.host,
      port: connection.port,
      database: connection.database,
      user: connection.username,
      password: connection.password,
      ssl: tlsOptions(connection, mode) ?? false,
      connectionTimeoutMillis: connection.connectionTimeoutInMs,
      statement_timeout: connection.statementTimeoutInMs,
      types: parsers.types,
    } as Knex.PgConnectionConfig,
    searchPath: connection.schema ? [connection.schema] : undefined,
    pool: {
      ...connection.pool,
      // Timestamps without a zone are read and written as UTC.
      afterCreate: (client: CallbackClient, done: Done) =>
        runAll(client, ["SET TIME ZONE 'UTC'"], done),
    },
    acquireConnectionTimeout: connection.connectionTimeoutInMs,
  };
}

function mysqlConfig(connection: ResolvedConnection, mode: SslMode): Knex.Config {
  const ssl = tlsOptions(connection, mode);
  const seconds = Math.max(1, Math.ceil(connection.statementTimeoutInMs / 1000));
  return {
    client: 'mysql2',
    connection: {
      ...connection.driverOptions,
      host: connection.host,
      port: connection.port,
      database: connection.database,
      user: connection.username,
      password: connection.password,
      ssl: ssl as Knex.MySql2ConnectionConfig['ssl'],
      connectTimeout: connection.connectionTimeoutInMs,
      timezone: 'Z',
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      charset: 'utf8mb4',
    },
    pool: {
      ...connection.pool,
      afterCreate: (client: MysqlClient, done: Done) => {
        // The URI's dialect may say mysql for a MariaDB server: ask the server which it is.
        client.query('SELECT VERSION() AS version', (error, rows) => {
          if (error) {
            done(error, client);
            return;
          }
          const mariadb = String(rows?.[0]?.version ?? '').includes('MariaDB');
          runAll(
            client,
            [
              "SET time_zone = '+00:00'",
              // MariaDB names the limit max_statement_time (seconds), MySQL max_execution_time (ms).
              mariadb
                ? `SET SESSION max_statement_time = ${seconds}`
                : `SET SESSION max_execution_time = ${connection.statementTimeoutInMs}`,
            ],
            done,
          );
        });
      },
    },
    acquireConnectionTimeout: connection.connectionTimeoutInMs,
  };
}

function sqliteConfig(connection: ResolvedConnection): Knex.Config {
  return {
    client: 'better-sqlite3',
    connection: { filename: connection.database },
    useNullAsDefault: true,
    // One connection, kept open: an in-memory database lives as long as its connection.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (database: SqliteDatabase, done: Done) => {
        try {
          database.pragma('foreign_keys = ON');
          // Integers come back as BigInt, so those above 2^53 keep every digit.
          database.defaultSafeIntegers(true);
          database.function('canopy_regexp', { deterministic: true }, regexp);
          done(null, database);
        } catch (error) {
          done(error as Error, database);
        }
      },
    },
  };
}

/**
 * The MySQL/MariaDB and SQLite drivers are optional peer dependencies: only the application that
 * connects to such a database installs them (PostgreSQL's `pg` is always there).
 */
const OPTIONAL_DRIVERS = { mysql: 'mysql2', mariadb: 'mysql2', sqlite: 'better-sqlite3' } as const;

/** Builds the knex instance, turning knex's "cannot find module" into a sentence that says what to do. */
function withDriver(dialect: keyof typeof OPTIONAL_DRIVERS, build: () => Knex): Knex {
  const driver = OPTIONAL_DRIVERS[dialect];
  try {
    return build();
  } catch (error) {
    if (!String((error as Error)?.message).includes(`Cannot find module '${driver}'`)) throw error;
    throw new SqlDataSourceError(
      'DRIVER_NOT_INSTALLED',
      `Connecting to ${dialect === 'sqlite' ? 'SQLite' : 'MySQL/MariaDB'} needs the '${driver}' ` +
        `package, which is not installed: run \`npm install ${driver}\` in your project.`,
      { cause: error },
    );
  }
}

const ignore = () => undefined;
/** knex prints pool errors to the console; ours reach the caller as thrown errors instead. */
const QUIET: Knex.Config['log'] = { warn: ignore, error: ignore, debug: ignore, deprecate: ignore };

/** A knex instance for the connection, TLS negotiated with `mode`; nothing is opened yet. */
export function createKnex(
  connection: ResolvedConnection,
  mode: SslMode,
  parsers: PgTypeParsers,
): Knex {
  switch (connection.dialect) {
    case 'postgres':
      return knexFactory({ ...pgConfig(connection, mode, parsers), log: QUIET });
    case 'mysql':
    case 'mariadb':
      return withDriver(connection.dialect, () =>
        knexFactory({ ...mysqlConfig(connection, mode), log: QUIET }),
      );
    default:
      return withDriver('sqlite', () => knexFactory({ ...sqliteConfig(connection), log: QUIET }));
  }
}
