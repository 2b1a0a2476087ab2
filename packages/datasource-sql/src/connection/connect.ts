import type { Knex } from 'knex';
import { SqlDataSourceError } from '../errors/sql-data-source-error';
import { createKnex } from './create-knex';
import type { PgTypeParsers } from './pg-type-parsers';
import { describeConnection, type ResolvedConnection } from './resolved-connection';
import type { SslMode } from './sql-connection-params';

/** "ConnectionRefusedError" → "Connection refused error". */
function words(name: string): string {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function redact(message: string, connection: ResolvedConnection): string {
  const { password } = connection;
  return password ? message.split(password).join('***') : message;
}

function describeFailure(error: unknown, connection: ResolvedConnection): string {
  if (!(error instanceof Error)) return redact(String(error), connection);
  const code = (error as { code?: unknown }).code;
  const message = error.message || (error as { errors?: Error[] }).errors?.[0]?.message || '';
  // Driver codes (ECONNREFUSED, 28P01, ER_ACCESS_DENIED_ERROR) are kept as they are.
  const name = typeof code === 'string' && code !== '' ? code : words(error.name);
  return redact(`${name}: ${message}`, connection);
}

async function probe(knex: Knex, connection: ResolvedConnection): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new SqlDataSourceError(
            'DATABASE_CONNECT_TIMEOUT',
            `Connection to database timed out: ${describeConnection(connection)} did not answer ` +
              `within ${connection.connectionTimeoutInMs} ms.`,
          ),
        ),
      connection.connectionTimeoutInMs,
    );
  });
  try {
    await Promise.race([knex.raw('select 1'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function tryMode(
  connection: ResolvedConnection,
  mode: SslMode,
  parsers: PgTypeParsers,
): Promise<Knex> {
  const knex = createKnex(connection, mode, parsers);
  try {
    await probe(knex, connection);
    return knex;
  } catch (error) {
    await knex.destroy().catch(() => undefined);
    if (error instanceof SqlDataSourceError) throw error;
    throw new SqlDataSourceError(
      'DATABASE_CONNECT_ERROR',
      `Unable to connect to the given uri: ${describeConnection(connection)}. ` +
        describeFailure(error, connection),
      { cause: error },
    );
  }
}

/**
 * Opens a pool and checks that one query goes through. With `sslMode: 'preferred'`, tries
 * `verify`, then `required`, then `disabled` (skipping `verify` when the process disabled TLS
 * verification) and keeps the first that connects; otherwise the last error is thrown.
 */
export async function connect(
  connection: ResolvedConnection,
  parsers: PgTypeParsers,
): Promise<{ knex: Knex; sslMode: SslMode }> {
  if (connection.sslMode !== 'preferred' || connection.dialect === 'sqlite') {
    const knex = await tryMode(connection, connection.sslMode, parsers);
    return { knex, sslMode: connection.sslMode };
  }
  const modes: SslMode[] =
    process.env.NODE_TLS_REJECT_UNAUTHORIZED === '0'
      ? ['required', 'disabled']
      : ['verify', 'required', 'disabled'];
  let lastError: unknown;
  for (const mode of modes) {
    try {
      return { knex: await tryMode(connection, mode, parsers), sslMode: mode };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
