import { createSqlDataSource } from '../create-sql-data-source';
import { isSqlDataSourceError } from '../errors/sql-data-source-error';

// The application has not installed the optional MySQL driver.
jest.mock('mysql2', () => {
  throw new Error("Cannot find module 'mysql2' from 'knex/lib/dialects/mysql2/index.js'");
});

describe('optional drivers', () => {
  it('says which package to install when the MySQL driver is missing', async () => {
    const factory = createSqlDataSource('mysql://root@127.0.0.1:3306/test');
    const failure = await factory(
      () => undefined,
      async () => undefined,
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isSqlDataSourceError(failure, 'DRIVER_NOT_INSTALLED')).toBe(true);
    expect((failure as Error).message).toBe(
      "Connecting to MySQL/MariaDB needs the 'mysql2' package, which is not installed: run `npm install mysql2` in your project.",
    );
  });
});
