import { PaginatedFilter, Projection, type PlainConditionTree } from '@canopy/agent-core/toolkit';
import { createPostgresTestDatabase } from '@canopy/test-databases';
import { openSqlDataSource } from '../src/create-sql-data-source';
import type { SqlDataSource } from '../src/sql-data-source';
import { caller } from './shared-suite';

type TestDatabase = Awaited<ReturnType<typeof createPostgresTestDatabase>>;

/** Named prepared statements of cached SELECTs on PostgreSQL (`preparedStatements`). */
describe('prepared statements (PostgreSQL)', () => {
  let database: TestDatabase;
  const opened: SqlDataSource[] = [];

  beforeAll(async () => {
    database = await createPostgresTestDatabase();
    await database.knex.raw(`CREATE TABLE items (id integer PRIMARY KEY, n integer NOT NULL)`);
    await database.knex.raw(`INSERT INTO items SELECT i, i * 10 FROM generate_series(1, 5) i`);
  }, 120_000);

  afterAll(async () => {
    for (const dataSource of opened) await dataSource.close();
    await database?.drop();
  });

  /** A data source on one connection, so that every query runs in the same session. */
  async function open(options: { preparedStatements?: boolean } = {}): Promise<SqlDataSource> {
    const dataSource = await openSqlDataSource({ uri: database.url, pool: { max: 1 } }, options);
    opened.push(dataSource);
    return dataSource;
  }

  const list = (dataSource: SqlDataSource, tree: PlainConditionTree | null) =>
    dataSource
      .getCollection('items')
      .list(
        caller(),
        new PaginatedFilter({ conditionTree: tree, sort: [{ field: 'id', ascending: true }] }),
        new Projection('id', 'n'),
      );
  const equal = (id: number): PlainConditionTree => ({ field: 'id', operator: 'Equal', value: id });
  /** A condition of `size` leaves: a distinct statement per size. */
  const anyOf = (size: number): PlainConditionTree => ({
    aggregator: 'Or',
    conditions: Array.from({ length: size }, (_, index) => equal(index + 1)),
  });

  /** The statements prepared in the data source's (only) session, `canopy_<n>`. */
  async function prepared(dataSource: SqlDataSource): Promise<string[]> {
    const result = (await dataSource.knex.raw(
      `SELECT name FROM pg_prepared_statements ORDER BY prepare_time, name`,
    )) as { rows: Array<{ name: string }> };
    // Names are `canopy_<instance>_<n>`: the number given on this connection.
    return result.rows.map((row) => row.name.replace(/^canopy_[0-9a-f]{8}_/, 'canopy_'));
  }

  it('prepares a cached statement once per connection, then binds new values to it', async () => {
    const dataSource = await open();
    expect(await list(dataSource, equal(2))).toEqual([{ id: 2, n: 20 }]);
    // The first run compiled the statement (knex's runner, unnamed); the cached runs name it.
    expect(await prepared(dataSource)).toEqual([]);
    expect(await list(dataSource, equal(3))).toEqual([{ id: 3, n: 30 }]);
    expect(await list(dataSource, equal(4))).toEqual([{ id: 4, n: 40 }]);
    expect(await prepared(dataSource)).toEqual(['canopy_1']);
    expect(dataSource.statementCache).toMatchObject({ hits: 2, misses: 1 });
  });

  it('prepares a statement again when its table changed since (result type, DEALLOCATE ALL)', async () => {
    const dataSource = await open();
    const errors: unknown[] = [];
    dataSource.knex.on('query-error', (error: unknown) => errors.push(error));
    await list(dataSource, equal(1));
    expect(await list(dataSource, equal(2))).toEqual([{ id: 2, n: 20 }]);
    // PostgreSQL refuses the prepared statement: "cached plan must not change result type".
    await database.knex.raw(`ALTER TABLE items ALTER COLUMN n TYPE bigint`);
    try {
      expect(await list(dataSource, equal(3))).toEqual([{ id: 3, n: 30 }]);
      expect(await list(dataSource, equal(4))).toEqual([{ id: 4, n: 40 }]);
      expect(await prepared(dataSource)).toEqual(['canopy_2']);
      // A session whose statements were all dropped under the data source (a pooler, a script).
      await dataSource.knex.raw('DEALLOCATE ALL');
      expect(await list(dataSource, equal(5))).toEqual([{ id: 5, n: 50 }]);
      expect(await prepared(dataSource)).toEqual(['canopy_3']);
      expect(errors).toEqual([]);
    } finally {
      await database.knex.raw(`ALTER TABLE items ALTER COLUMN n TYPE integer`);
    }
  });

  it('keeps at most 100 statements prepared on a connection, deallocating the oldest', async () => {
    const dataSource = await open();
    // Each size is compiled on its first run (unnamed) and prepared on its second.
    for (let size = 1; size <= 101; size += 1) {
      await list(dataSource, anyOf(size));
      await list(dataSource, anyOf(size));
    }
    const names = await prepared(dataSource);
    expect(names).toHaveLength(100);
    expect(names).not.toContain('canopy_1');
    expect(names).toContain('canopy_101');
    // pg forgot it too: the first statement is prepared again, under a new name.
    const connection = (
      dataSource.knex.client as {
        pool: { free: Array<{ resource: { connection: { parsedStatements: object } } }> };
      }
    ).pool.free[0]?.resource.connection;
    const parsed = Object.keys(connection?.parsedStatements ?? {});
    expect(parsed).toHaveLength(100);
    expect(parsed.some((name) => name.endsWith('_1'))).toBe(false);
    expect(await list(dataSource, anyOf(1))).toEqual([{ id: 1, n: 10 }]);
    const after = await prepared(dataSource);
    expect(after).toHaveLength(100);
    expect(after).toContain('canopy_102');
    expect(after).not.toContain('canopy_2');
  }, 60_000);

  it('deallocates the least recently used statement, not the first prepared', async () => {
    const dataSource = await open();
    for (let size = 1; size <= 100; size += 1) {
      await list(dataSource, anyOf(size));
      await list(dataSource, anyOf(size));
    }
    // The first statement runs again: the second is now the one used longest ago.
    expect(await list(dataSource, anyOf(1))).toEqual([{ id: 1, n: 10 }]);
    await list(dataSource, anyOf(101));
    await list(dataSource, anyOf(101));
    const names = await prepared(dataSource);
    expect(names).toHaveLength(100);
    expect(names).toContain('canopy_1');
    expect(names).not.toContain('canopy_2');
    expect(names).toContain('canopy_101');
  }, 60_000);

  it('runs cached statements unnamed with preparedStatements: false', async () => {
    const dataSource = await open({ preparedStatements: false });
    for (const id of [1, 2, 3]) expect(await list(dataSource, equal(id))).toHaveLength(1);
    expect(dataSource.statementCache).toMatchObject({ hits: 2 });
    expect(await prepared(dataSource)).toEqual([]);
  });

  it('refuses a preparedStatements that is not a boolean', async () => {
    const error = await openSqlDataSource(database.url, {
      preparedStatements: 'yes' as never,
    }).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('Invalid preparedStatements yes: use true or false.');
  });
});
