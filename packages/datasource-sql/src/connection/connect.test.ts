import { DEFAULT_MYSQL_URL, DEFAULT_PG_URL } from '@canopy/test-databases';
import { createServer, type AddressInfo } from 'node:net';
import { isSqlDataSourceError } from '../errors/sql-data-source-error';
import { openSqlDataSource } from '../create-sql-data-source';
import { connect } from './connect';
import { parseConnection } from './parse-connection';
import { PgTypeParsers } from './pg-type-parsers';

async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the connection to fail');
}

describe('connect', () => {
  it('connects to PostgreSQL and runs queries with this pool’s own type parsers', async () => {
    const { knex } = await connect(
      parseConnection(process.env.PG_URL ?? DEFAULT_PG_URL),
      new PgTypeParsers(),
    );
    try {
      const { rows } = await knex.raw(
        "select 9007199254740993::int8 as big, 2::int8 as small, '2024-01-02'::date as day, '2024-01-02 03:04:05'::timestamp as naive",
      );
      expect(rows[0]).toEqual({
        big: '9007199254740993',
        small: 2,
        day: '2024-01-02',
        naive: '2024-01-02 03:04:05',
      });
    } finally {
      await knex.destroy();
    }
  });

  it('says which server and database failed, and why, without the password', async () => {
    const url = new URL(process.env.PG_URL ?? DEFAULT_PG_URL);
    url.username = 'nobody_here';
    url.password = 'hunter2-secret';
    url.pathname = '/no_such_database';
    const error = await failure(() =>
      connect(parseConnection(url.toString()), new PgTypeParsers()),
    );
    expect(isSqlDataSourceError(error, 'DATABASE_CONNECT_ERROR')).toBe(true);
    expect(error.message).toContain(`postgres://${url.hostname}:${url.port}/no_such_database`);
    expect(error.message).not.toContain('hunter2-secret');
  });

  it('with sslMode preferred, falls back from verified TLS to what the server offers', async () => {
    const url = new URL(process.env.MYSQL_URL ?? DEFAULT_MYSQL_URL);
    const { knex, sslMode } = await connect(
      parseConnection({ uri: url.toString(), sslMode: 'preferred' }),
      new PgTypeParsers(),
    );
    try {
      // The local server has no certificate a client could verify.
      expect(['required', 'disabled']).toContain(sslMode);
      const [rows] = await knex.raw('select 1 + 1 as two');
      expect(rows[0].two).toBe(2);
    } finally {
      await knex.destroy();
    }
  });

  it('gives up on a server that accepts connections but never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const started = Date.now();
      const error = await failure(() =>
        connect(
          parseConnection({
            uri: `postgres://u:pw@127.0.0.1:${port}/db`,
            connectionTimeoutInMs: 300,
          }),
          new PgTypeParsers(),
        ),
      );
      expect(Date.now() - started).toBeLessThan(5000);
      expect(isSqlDataSourceError(error)).toBe(true);
      expect(error.message).toContain(`127.0.0.1:${port}/db`);
      expect(error.message).toMatch(/timed out|timeout/i);
    } finally {
      silent.close();
    }
  });

  it('reports an unreachable server', async () => {
    const error = await failure(() =>
      connect(
        parseConnection({ uri: 'mariadb://root@127.0.0.1:1/db', connectionTimeoutInMs: 2000 }),
        new PgTypeParsers(),
      ),
    );
    expect(error.message).toContain('Unable to connect to the given uri: mariadb://127.0.0.1:1/db');
    expect(error.message).toMatch(/ECONNREFUSED|refused/i);
  });

  it('refuses a PostgreSQL schema that does not exist, listing the available ones', async () => {
    const url = new URL(process.env.PG_URL ?? DEFAULT_PG_URL);
    url.searchParams.set('schema', 'no_such_schema');
    const error = await failure(() => openSqlDataSource(url.toString()));
    expect(isSqlDataSourceError(error, 'INVALID_CONNECTION_OPTIONS')).toBe(true);
    expect(error.message).toContain('"no_such_schema" does not exist');
    expect(error.message).toContain('public');
  });
});
