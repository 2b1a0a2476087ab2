import type { ConnectionOptions } from 'node:tls';
import type { SqlDialect, SslMode } from './sql-connection-params';

/** Connection settings after parsing and defaults: everything the knex factory needs. */
export interface ResolvedConnection {
  dialect: SqlDialect;
  host: string;
  port: number;
  /** Database name, or the SQLite file path. */
  database: string;
  username?: string;
  password?: string;
  /** PostgreSQL schema; the database name for MySQL/MariaDB; absent for SQLite. */
  schema?: string;
  sslMode: SslMode;
  ssl?: ConnectionOptions;
  pool: { min: number; max: number; idleTimeoutMillis: number };
  connectionTimeoutInMs: number;
  statementTimeoutInMs: number;
  embedded: boolean;
  /** Query parameters of the URI not interpreted here, passed to the driver. */
  driverOptions: Record<string, string>;
}

/** `dialect://host:port/database`, never with credentials: for error messages and logs. */
export function describeConnection(connection: ResolvedConnection): string {
  if (connection.dialect === 'sqlite') return `sqlite:${connection.database}`;
  return `${connection.dialect}://${connection.host}:${connection.port}/${connection.database}`;
}
