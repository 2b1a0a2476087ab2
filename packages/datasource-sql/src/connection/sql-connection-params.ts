import type { ConnectionOptions } from 'node:tls';

/** SQL dialects the data source speaks. */
export type SqlDialect = 'postgres' | 'mysql' | 'mariadb' | 'sqlite';

/**
 * How TLS is negotiated with the database server.
 *
 * - `disabled`: plain TCP.
 * - `required`: TLS without certificate verification.
 * - `verify`: TLS with certificate and host name verification.
 * - `manual` (default): whatever `ssl` says (no TLS when `ssl` is absent).
 * - `preferred`: try `verify`, then `required`, then `disabled`; the first that connects wins.
 */
export type SslMode = 'disabled' | 'required' | 'verify' | 'manual' | 'preferred';

/** Connection pool settings. */
export interface SqlPoolOptions {
  /** Connections kept open when idle (default 0). */
  min?: number;
  /** Maximum simultaneous connections (default 10; always 1 for SQLite and embedded PostgreSQL). */
  max?: number;
  /** Milliseconds an idle connection is kept (default 30 000). */
  idleTimeoutMillis?: number;
}

/**
 * Connection settings of {@link createSqlDataSource}, as an alternative to a URI.
 *
 * @example
 * const params: SqlConnectionParams = {
 *   dialect: 'postgres', host: 'db.internal', port: 5432, database: 'shop',
 *   username: 'admin', password: process.env.DB_PASSWORD, schema: 'public', sslMode: 'verify',
 *   pool: { max: 20 }, connectionTimeoutInMs: 5000,
 * };
 */
export interface SqlConnectionParams {
  /** A URI; its parts win over the separate fields below. */
  uri?: string;
  /** Dialect; aliases `pg`, `postgresql`, `mysql2` and `sqlite3` are accepted. */
  dialect?: SqlDialect | 'pg' | 'postgresql' | 'mysql2' | 'sqlite3';
  /** Host name (default `localhost`). */
  host?: string;
  /** Port (default 5432 for PostgreSQL, 3306 for MySQL/MariaDB). */
  port?: number;
  /** Database name; for SQLite, the file path (or `:memory:`). */
  database?: string;
  username?: string;
  password?: string;
  /** Schema to introspect (PostgreSQL; default `public`). */
  schema?: string;
  /** TLS negotiation (default `manual`). */
  sslMode?: SslMode;
  /** TLS options used when `sslMode` is `manual`, merged into the others otherwise. */
  ssl?: ConnectionOptions;
  /** SQLite file path (alias of `database` for SQLite). */
  storage?: string;
  /** Pool settings. */
  pool?: SqlPoolOptions;
  /** Time allowed to open a connection, in milliseconds (default 10 000). */
  connectionTimeoutInMs?: number;
  /** Time allowed to one statement, in milliseconds (default 60 000; PostgreSQL and MySQL). */
  statementTimeoutInMs?: number;
  /**
   * The server is an embedded PostgreSQL (PGlite) that accepts one connection: forces a pool of
   * one. Set automatically for URLs returned by {@link startEmbeddedPostgres}.
   */
  embedded?: boolean;
}
