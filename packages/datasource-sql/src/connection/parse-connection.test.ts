import { isSqlDataSourceError } from '../errors/sql-data-source-error';
import { parseConnection } from './parse-connection';

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('parseConnection', () => {
  it('reads a PostgreSQL URI with its schema, credentials and defaults', () => {
    expect(
      parseConnection('postgresql://app:s%40cret@db.internal/shop?schema=sales'),
    ).toMatchObject({
      dialect: 'postgres',
      host: 'db.internal',
      port: 5432,
      database: 'shop',
      username: 'app',
      password: 's@cret',
      schema: 'sales',
      sslMode: 'manual',
      pool: { min: 0, max: 10 },
      connectionTimeoutInMs: 10_000,
    });
  });

  it('reads MySQL, MariaDB and SQLite URIs', () => {
    expect(parseConnection('mysql2://root@localhost:3307/shop')).toMatchObject({
      dialect: 'mysql',
      port: 3307,
      schema: 'shop',
    });
    expect(parseConnection('mariadb://root@localhost/shop').port).toBe(3306);
    expect(parseConnection('sqlite:/tmp/shop.db')).toMatchObject({
      dialect: 'sqlite',
      database: '/tmp/shop.db',
      pool: { max: 1 },
    });
  });

  it('accepts SqlConnectionParams, URI parts winning over fields', () => {
    expect(
      parseConnection({
        uri: 'postgres://u@h:6543/db',
        host: 'ignored',
        password: 'pw',
        sslMode: 'verify',
        pool: { max: 3 },
        connectionTimeoutInMs: 500,
      }),
    ).toMatchObject({ host: 'h', port: 6543, password: 'pw', sslMode: 'verify', pool: { max: 3 } });
  });

  it('forces a pool of one for the embedded PostgreSQL', () => {
    const connection = parseConnection('postgres://postgres@127.0.0.1:5999/postgres?embedded=true');
    expect(connection).toMatchObject({ embedded: true, pool: { min: 0, max: 1 } });
    expect(connection.driverOptions).toEqual({});
  });

  it.each([
    ['not a uri', 'not valid. Should be <dialect>://<connection>'],
    ['oracle://u@h/db', 'Unsupported dialect "oracle"'],
    ['postgres://u@h:5432', 'Database name is required'],
    ['postgres://u@h:99999/db', 'not valid'],
  ])('refuses %s with a clear message', (uri, message) => {
    const error = errorOf(() => parseConnection(uri));
    expect(isSqlDataSourceError(error, 'INVALID_CONNECTION_OPTIONS')).toBe(true);
    expect(error.message).toContain(message);
  });

  it('never repeats the password in its errors', () => {
    const error = errorOf(() => parseConnection('postgres://user:hunter2@/'));
    expect(error.message).not.toContain('hunter2');
    expect(
      errorOf(() => parseConnection({ dialect: 'postgres', password: 'hunter2' })).message,
    ).not.toContain('hunter2');
  });

  it('refuses an unknown sslMode and bad pool sizes', () => {
    expect(
      errorOf(() => parseConnection({ uri: 'postgres://h/db', sslMode: 'always' as never }))
        .message,
    ).toContain('Invalid sslMode "always"');
    expect(
      errorOf(() => parseConnection({ uri: 'postgres://h/db', pool: { max: 0 } })).message,
    ).toContain('pool.max');
  });
});
