import { SqlDataSourceError } from '../errors/sql-data-source-error';
import type { ResolvedConnection } from './resolved-connection';
import type { SqlConnectionParams, SqlDialect, SslMode } from './sql-connection-params';

const DIALECT_ALIASES: Record<string, SqlDialect> = {
  postgres: 'postgres',
  postgresql: 'postgres',
  pg: 'postgres',
  mysql: 'mysql',
  mysql2: 'mysql',
  mariadb: 'mariadb',
  sqlite: 'sqlite',
  sqlite3: 'sqlite',
};

const DEFAULT_PORTS: Record<SqlDialect, number> = {
  postgres: 5432,
  mysql: 3306,
  mariadb: 3306,
  sqlite: 0,
};

const SSL_MODES: readonly SslMode[] = ['disabled', 'required', 'verify', 'manual', 'preferred'];

/** URI query parameters read by the data source itself rather than passed to the driver. */
const OWN_PARAMETERS = new Set(['schema', 'sslmode', 'embedded']);

function invalid(message: string): SqlDataSourceError {
  return new SqlDataSourceError('INVALID_CONNECTION_OPTIONS', message);
}

function resolveDialect(name: string | undefined): SqlDialect {
  if (!name) throw invalid('Dialect is required: use one of postgres, mysql, mariadb, sqlite.');
  const dialect = DIALECT_ALIASES[name.toLowerCase()];
  if (!dialect) {
    throw invalid(
      `Unsupported dialect "${name}": use one of postgres, mysql, mariadb, sqlite ` +
        '(aliases pg, postgresql, mysql2, sqlite3).',
    );
  }
  return dialect;
}

function resolveSslMode(value: string | undefined): SslMode {
  if (value === undefined) return 'manual';
  const mode = value.toLowerCase();
  // libpq spellings are accepted for URIs copied from other tools.
  const libpq: Record<string, SslMode> = {
    disable: 'disabled',
    require: 'required',
    'verify-full': 'verify',
    'verify-ca': 'verify',
    prefer: 'preferred',
  };
  const resolved = (SSL_MODES as readonly string[]).includes(mode)
    ? (mode as SslMode)
    : libpq[mode];
  if (!resolved) {
    throw invalid(`Invalid sslMode "${value}": use one of ${SSL_MODES.join(', ')}.`);
  }
  return resolved;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw invalid(`${name} must be a non-negative integer, got ${String(value)}.`);
  }
  return value;
}

interface UriParts {
  dialect: string;
  host?: string;
  port?: number;
  database?: string;
  username?: string;
  password?: string;
  parameters: Record<string, string>;
}

/** Describes a URI for error messages without its credentials. */
function redactUri(uri: string): string {
  return uri.replace(/\/\/[^@/]*@/, '//***@');
}

function parseUri(uri: string): UriParts {
  const sqlite = /^sqlite3?:(?:\/\/)?(.*)$/i.exec(uri);
  if (sqlite) {
    const [path = '', query = ''] = (sqlite[1] ?? '').split('?');
    return {
      dialect: 'sqlite',
      database: decodeURIComponent(path) || ':memory:',
      parameters: Object.fromEntries(new URLSearchParams(query)),
    };
  }
  const match = /^([a-z0-9]+):\/\/(.+)$/i.exec(uri);
  if (!match) {
    throw invalid(
      `Connection Uri "${redactUri(uri)}" provided to SQL data source is not valid. ` +
        'Should be <dialect>://<connection>.',
    );
  }
  let url: URL;
  try {
    url = new URL(`placeholder://${match[2]}`);
  } catch {
    throw invalid(
      `Connection Uri "${redactUri(uri)}" provided to SQL data source is not valid: ` +
        'expected <dialect>://user:password@host:port/database.',
    );
  }
  return {
    dialect: match[1] as string,
    host: url.hostname ? decodeURIComponent(url.hostname) : undefined,
    port: url.port ? Number(url.port) : undefined,
    database: url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : undefined,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    parameters: Object.fromEntries(url.searchParams),
  };
}

/**
 * Turns a URI or {@link SqlConnectionParams} into complete connection settings. URI parts win
 * over separate fields; errors say what is wrong without repeating the password.
 *
 * @example
 * parseConnection('postgres://app:secret@db:5432/shop?schema=sales').schema; // 'sales'
 */
export function parseConnection(input: string | SqlConnectionParams): ResolvedConnection {
  const params: SqlConnectionParams = typeof input === 'string' ? { uri: input } : { ...input };
  if (typeof params !== 'object' || params === null) {
    throw invalid('Connection options must be a URI string or a SqlConnectionParams object.');
  }
  const uri = params.uri !== undefined ? parseUri(params.uri) : undefined;
  const dialect = resolveDialect(uri?.dialect ?? params.dialect);
  const parameters = uri?.parameters ?? {};

  const driverOptions = Object.fromEntries(
    Object.entries(parameters).filter(([key]) => !OWN_PARAMETERS.has(key.toLowerCase())),
  );
  const embedded = parameters.embedded === 'true' || params.embedded === true;
  const sslMode = resolveSslMode(parameters.sslmode ?? parameters.sslMode ?? params.sslMode);
  const pool = {
    min: positiveInteger('pool.min', params.pool?.min, 0),
    max: positiveInteger('pool.max', params.pool?.max, 10),
    idleTimeoutMillis: positiveInteger(
      'pool.idleTimeoutMillis',
      params.pool?.idleTimeoutMillis,
      30_000,
    ),
  };
  if (pool.max < 1) throw invalid('pool.max must be at least 1.');
  if (dialect === 'sqlite' || embedded) {
    // One writer (SQLite) or one session (PGlite): more connections would fail or interleave.
    pool.min = 0;
    pool.max = 1;
  }
  const common = {
    dialect,
    sslMode,
    ssl: params.ssl,
    pool,
    connectionTimeoutInMs: positiveInteger(
      'connectionTimeoutInMs',
      params.connectionTimeoutInMs,
      10_000,
    ),
    statementTimeoutInMs: positiveInteger(
      'statementTimeoutInMs',
      params.statementTimeoutInMs,
      60_000,
    ),
    embedded,
    driverOptions,
  };

  if (dialect === 'sqlite') {
    const database = uri?.database ?? params.storage ?? params.database;
    if (!database) {
      throw invalid('SQLite needs a file: use sqlite:/path/to/file.db, `storage` or `database`.');
    }
    return { ...common, host: '', port: 0, database };
  }

  const port = uri?.port ?? params.port ?? DEFAULT_PORTS[dialect];
  if (!Number.isInteger(port) || port <= 0 || port > 65_535) {
    throw invalid(`Port is required and must be between 1 and 65535, got ${String(port)}.`);
  }
  const database = uri?.database ?? params.database;
  if (!database) {
    throw invalid(
      `Database name is required for ${dialect}: put it in the URI path ` +
        `(${dialect}://host:${port}/<database>) or in \`database\`.`,
    );
  }
  const schemaParameter = parameters.schema ?? params.schema;
  const schema =
    dialect === 'postgres' ? (schemaParameter ?? 'public') : (schemaParameter ?? database);
  if (dialect !== 'postgres' && schema !== database) {
    throw invalid(
      `On ${dialect} the schema is the database: got schema "${schema}" and database ` +
        `"${database}". Drop \`schema\` or make it equal to the database name.`,
    );
  }

  return {
    ...common,
    host: uri?.host ?? params.host ?? 'localhost',
    port,
    database,
    username: uri?.username ?? params.username,
    password: uri?.password ?? params.password,
    schema,
  };
}
